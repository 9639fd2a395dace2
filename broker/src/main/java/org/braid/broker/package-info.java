/** The broker: replica catalogs, discovery, ads, prediction, ranking and the platform graph. */
package org.braid.broker;
