/** The provider's embedded SQLite store: transfers, log positions, rejections and probe series. */
package org.braid.infoprovider.store;
