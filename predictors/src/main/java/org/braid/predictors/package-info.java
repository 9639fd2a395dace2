/** Transfer-rate forecasting: series, predictors, adaptive selection and error metrics. */
package org.braid.predictors;
