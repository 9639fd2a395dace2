/**
 * The XRootD range source ({@code root://}, {@code roots://}): a client of the XRootD protocol
 * (version 5, as specified in XRootD's {@code XProtocol.hh}) written against its wire format, with
 * no native library. {@link org.braid.coalloc.xrootd.XrootdRangeSource} is the only public class.
 */
package org.braid.coalloc.xrootd;
