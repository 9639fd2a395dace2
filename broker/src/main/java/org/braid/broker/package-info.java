/**
 * The broker: {@link org.braid.broker.Broker} discovers replicas' information providers, builds
 * their storage ads with bandwidth forecasts, ranks them with the ClassAd matchmaker, and plans
 * co-allocated downloads.
 */
package org.braid.broker;
