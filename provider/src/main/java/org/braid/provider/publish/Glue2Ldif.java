package org.braid.provider.publish;

import static org.braid.provider.publish.LdifText.attr;
import static org.braid.provider.publish.LdifText.rdn;

import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.braid.infoprovider.VolumeSpace;
import org.braid.infoprovider.store.Point;
import org.braid.infoprovider.wire.AdAttributes;
import org.braid.infoprovider.wire.Endpoint;
import org.braid.infoprovider.wire.Glue2Extensions;

/**
 * LDIF in GLUE 2.0, the way a resource BDII publishes a storage service, e.g. for host {@code
 * se.example.org} under the default base {@value #DEFAULT_BASE}:
 *
 * <pre>
 * GLUE2ServiceID=urn:braid:storage:se.example.org,BASE                  (GLUE2StorageService)
 *   GLUE2EndpointID=urn:braid:endpoint:gsiftp://se.example.org:2811     (GLUE2StorageEndpoint)
 *     GLUE2ExtensionLocalID=ad:10.0.0.1@/data                           (GLUE2Extension: an ad)
 *   GLUE2ShareID=urn:braid:share:se.example.org:/data                   (GLUE2StorageShare)
 *     GLUE2StorageShareCapacityID=urn:braid:share:se.example.org:/data:online
 *   GLUE2ExtensionLocalID=ad:10.0.0.1@/                                 (host-level ad)
 *   GLUE2ExtensionLocalID=probe:disk/sda/util_percent                   (a probe's latest point)
 * </pre>
 *
 * <p>One endpoint entry per endpoint the provider publishes statistics for, one share per volume
 * (with its capacity in GB, 10^9 bytes, when the volume's space is configured). Braid's storage ads
 * (exactly those of {@code /v1/ads}) and the latest point of each probe series are GLUE 2.0
 * extension entries ({@link Glue2Extensions}): an endpoint's ads under its endpoint, host-level and
 * space-only ads and probe points under the service. Only the GLUE 2.0 schema is needed (Debian
 * package glue-schema); the base entry must exist (a BDII has it).
 */
public final class Glue2Ldif {

  /** The DN a resource BDII publishes under. */
  public static final String DEFAULT_BASE = "GLUE2GroupID=resource,o=glue";

  private Glue2Ldif() {}

  /**
   * Renders a snapshot.
   *
   * @param site the GLUE 2.0 admin domain (site) the service belongs to
   * @param base the DN the service entry goes under, e.g. {@value #DEFAULT_BASE}
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if site or base is blank
   */
  public static String render(Snapshot snap, String site, String base) {
    Objects.requireNonNull(snap, "snap");
    if (Objects.requireNonNull(site, "site").isBlank()) {
      throw new IllegalArgumentException("GLUE 2.0 site (admin domain) must not be blank");
    }
    if (Objects.requireNonNull(base, "base").isBlank()) {
      throw new IllegalArgumentException("GLUE 2.0 base DN must not be blank");
    }
    String created = snap.computedAt().truncatedTo(ChronoUnit.SECONDS).toString();
    String serviceId = "urn:braid:storage:" + snap.hostname();
    String serviceDn = "GLUE2ServiceID=" + rdn(serviceId) + "," + base;
    StringBuilder out = new StringBuilder();
    StringBuilder s = entry(serviceDn, created, "GLUE2Service", "GLUE2StorageService");
    attr(s, "GLUE2ServiceID", serviceId);
    attr(s, "GLUE2EntityName", "Braid statistics of " + snap.hostname());
    attr(s, "GLUE2ServiceType", "braid.storage");
    attr(s, "GLUE2ServiceQualityLevel", "production");
    attr(s, "GLUE2ServiceCapability", "data.transfer");
    attr(s, "GLUE2ServiceAdminDomainForeignKey", site);
    out.append(s).append('\n');

    List<Map<String, Object>> ads = StorageAds.ads(snap, null);
    Map<Endpoint, StringBuilder> endpoints = new LinkedHashMap<>();
    Set<String> volumes = new LinkedHashSet<>();
    StringBuilder underService = new StringBuilder();
    for (Map<String, Object> ad : ads) {
      volumes.add((String) ad.get(AdAttributes.VOLUME));
      Endpoint e = AdAttributes.endpoint(ad);
      String id = e == null ? serviceId : endpointId(e);
      String parent = e == null ? serviceDn : endpointDn(e, serviceDn);
      StringBuilder into =
          e == null ? underService : endpoints.computeIfAbsent(e, k -> new StringBuilder());
      Object peer = ad.get(AdAttributes.PEER);
      String local = "ad:" + (peer == null ? "" : peer + "@") + ad.get(AdAttributes.VOLUME);
      into.append(extension(parent, local, id, Glue2Extensions.AD_KEY, adValue(ad)));
    }
    for (Map.Entry<Endpoint, StringBuilder> e : endpoints.entrySet()) {
      Endpoint ep = e.getKey();
      StringBuilder en =
          entry(endpointDn(ep, serviceDn), created, "GLUE2Endpoint", "GLUE2StorageEndpoint");
      attr(en, "GLUE2EndpointID", endpointId(ep));
      attr(en, "GLUE2EndpointURL", ep.url());
      attr(en, "GLUE2EndpointInterfaceName", ep.scheme());
      attr(en, "GLUE2EndpointQualityLevel", "production");
      attr(en, "GLUE2EndpointHealthState", "unknown");
      attr(en, "GLUE2EndpointServingState", "production");
      attr(en, "GLUE2EndpointServiceForeignKey", serviceId);
      attr(en, "GLUE2StorageEndpointStorageServiceForeignKey", serviceId);
      out.append(en).append('\n').append(e.getValue());
    }
    volumes.addAll(snap.volumes().keySet());
    for (String v : volumes) {
      out.append(share(snap, serviceId, serviceDn, v, created));
    }
    out.append(underService);
    for (Map.Entry<String, Point> p : snap.lastSamples().entrySet()) {
      if (Double.isFinite(p.getValue().value())) {
        Glue2Extensions.Probe probe =
            new Glue2Extensions.Probe(
                snap.hostname(), p.getKey(), p.getValue().time(), p.getValue().value());
        out.append(
            extension(
                serviceDn,
                "probe:" + p.getKey(),
                serviceId,
                Glue2Extensions.PROBE_KEY,
                Glue2Extensions.probeValue(probe)));
      }
    }
    return out.toString();
  }

  private static String adValue(Map<String, Object> ad) {
    return Glue2Extensions.adValue(ad);
  }

  private static StringBuilder share(
      Snapshot snap, String serviceId, String serviceDn, String volume, String created) {
    String shareId = "urn:braid:share:" + snap.hostname() + ":" + volume;
    String shareDn = "GLUE2ShareID=" + rdn(shareId) + "," + serviceDn;
    StringBuilder out = new StringBuilder();
    StringBuilder sh = entry(shareDn, created, "GLUE2Share", "GLUE2StorageShare");
    attr(sh, "GLUE2ShareID", shareId);
    attr(sh, "GLUE2ShareServiceForeignKey", serviceId);
    attr(sh, "GLUE2StorageShareServingState", "production");
    attr(sh, "GLUE2StorageShareSharingID", "dedicated");
    attr(sh, "GLUE2StorageShareAccessLatency", "online");
    attr(sh, "GLUE2StorageSharePath", volume);
    out.append(sh).append('\n');
    VolumeSpace v = snap.volumes().get(volume);
    if (v != null) {
      String capId = shareId + ":online";
      StringBuilder c =
          entry(
              "GLUE2StorageShareCapacityID=" + rdn(capId) + "," + shareDn,
              created,
              "GLUE2StorageShareCapacity");
      attr(c, "GLUE2StorageShareCapacityID", capId);
      attr(c, "GLUE2StorageShareCapacityType", "online");
      attr(c, "GLUE2StorageShareCapacityStorageShareForeignKey", shareId);
      attr(c, "GLUE2StorageShareCapacityTotalSize", Long.toString(v.total() / 1_000_000_000L));
      attr(c, "GLUE2StorageShareCapacityFreeSize", Long.toString(v.available() / 1_000_000_000L));
      out.append(c).append('\n');
    }
    return out;
  }

  private static String extension(
      String parentDn, String localId, String entityId, String key, String value) {
    StringBuilder x =
        entry("GLUE2ExtensionLocalID=" + rdn(localId) + "," + parentDn, null, "GLUE2Extension");
    attr(x, "GLUE2ExtensionLocalID", localId);
    attr(x, "GLUE2ExtensionKey", key);
    attr(x, "GLUE2ExtensionValue", value);
    attr(x, "GLUE2ExtensionEntityForeignKey", entityId);
    return x.append('\n').toString();
  }

  private static StringBuilder entry(String dn, String created, String... classes) {
    StringBuilder e = new StringBuilder();
    attr(e, "dn", dn);
    for (String c : classes) {
      attr(e, "objectClass", c);
    }
    if (created != null) {
      attr(e, "GLUE2EntityCreationTime", created);
    }
    return e;
  }

  private static String endpointId(Endpoint e) {
    return "urn:braid:endpoint:" + e.url();
  }

  private static String endpointDn(Endpoint e, String serviceDn) {
    return "GLUE2EndpointID=" + rdn(endpointId(e)) + "," + serviceDn;
  }
}
