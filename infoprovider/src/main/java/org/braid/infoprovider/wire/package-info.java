/**
 * The wire formats a provider and a broker share, each defined once and used by its writer and its
 * reader: the HTTP paths, the storage-ad vocabulary with the endpoints ads are published for, and
 * the JSON answers.
 */
package org.braid.infoprovider.wire;
