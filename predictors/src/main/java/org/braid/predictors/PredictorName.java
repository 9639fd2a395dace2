package org.braid.predictors;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of a predictor, defined once: every family of names has one template (such as {@code
 * AVG{n}hr} or {@code G{vars}{degree} {fill}}) from which names are both written (by the factories
 * of {@link Predictors} and {@link Multivariate}) and read ({@link #parse}), so the two cannot
 * drift apart.
 *
 * <p>Families: the univariate rules of paper 003's Figure 4 ({@code AVG}, {@code AVG25}, {@code
 * AVG5hr}, {@code MED}, {@code MED5}, {@code LV}, {@code AR}, {@code AR5d}), the Network Weather
 * Service's ({@code ES0.3}, {@code TRIM25}, {@code TRIM25/0.1}, {@code NWS}), Braid's size and log
 * models ({@code TLIN25}, {@code LOGSIZE100}, {@code NEAR5/25}, {@code LOAD50}, {@code
 * LOADONLY200}, {@code LOGAR50}, {@code CONTEXT200}), Braid's {@code default}, the regression
 * models of paper 003's Table 1 ({@code G+N NoFill}, {@code G+D LV}, {@code G+N+D Avg}, polynomials
 * such as {@code G+N^3 Avg}), and {@code published}, the rule the information provider publishes.
 *
 * <p>Parsing ignores case and accepts {@code _} or {@code -} for the space of a regression name
 * ({@code g+n+d_nofill}); {@link #toString()} gives the canonical spelling. Immutable.
 */
public final class PredictorName {

  /** A parameter slot of a template: {@code {n}} a count, {@code {x}} a decimal, and so on. */
  private static final Pattern SLOT = Pattern.compile("\\{(n|x|vars|degree|fill)}");

  /** A family of names: its template and what its parameters mean. */
  enum Family {
    AVG("AVG"),
    AVG_N("AVG{n}"),
    AVG_HOURS("AVG{n}hr"),
    MED("MED"),
    MED_N("MED{n}"),
    LV("LV"),
    AR("AR"),
    AR_DAYS("AR{n}d"),
    ES("ES{x}"),
    TRIM("TRIM{n}"),
    TRIM_FRACTION("TRIM{n}/{x}"),
    TLIN("TLIN{n}"),
    LOGSIZE("LOGSIZE{n}"),
    NEAR("NEAR{n}/{n}"),
    LOAD("LOAD{n}"),
    LOADONLY("LOADONLY{n}"),
    LOGAR("LOGAR{n}"),
    CONTEXT("CONTEXT{n}"),
    NWS("NWS"),
    DEFAULT("default"),
    PUBLISHED("published"),
    REGRESSION("G{vars}{degree} {fill}");

    final String template;
    final List<String> slots;
    final Pattern pattern;

    Family(String template) {
      this.template = template;
      List<String> s = new ArrayList<>();
      StringBuilder re = new StringBuilder();
      Matcher m = SLOT.matcher(template);
      int at = 0;
      while (m.find()) {
        re.append(literal(template.substring(at, m.start())));
        s.add(m.group(1));
        re.append(
            switch (m.group(1)) {
              case "n" -> "([0-9]{1,9})";
              case "x" -> "([0-9]{1,9}(?:\\.[0-9]{1,9})?|\\.[0-9]{1,9})";
              case "vars" -> "(\\+N\\+D|\\+N|\\+D)";
              case "degree" -> "(?:\\^([1-4]))?";
              default -> "(NOFILL|LV|AVG)";
            });
        at = m.end();
      }
      re.append(literal(template.substring(at)));
      this.slots = List.copyOf(s);
      this.pattern = Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE);
    }

    private static String literal(String s) {
      // the space of a regression name may be written as '_' or '-' on a command line
      return s.isEmpty() ? "" : Pattern.quote(s).replace(" ", "\\E[ _-]\\Q");
    }

    /** Writes the name for canonical arguments, one per slot. */
    String render(List<String> args) {
      StringBuilder out = new StringBuilder();
      Matcher m = SLOT.matcher(template);
      int at = 0;
      int i = 0;
      while (m.find()) {
        out.append(template, at, m.start()).append(args.get(i++));
        at = m.end();
      }
      return out.append(template.substring(at)).toString();
    }
  }

  private final Family family;
  private final List<String> args;

  private PredictorName(Family family, List<String> args) {
    this.family = family;
    this.args = List.copyOf(args);
  }

  /**
   * Reads a name; case is ignored.
   *
   * @throws NullPointerException if text is null
   * @throws IllegalArgumentException naming the text if it is no predictor's name or a parameter is
   *     out of range (a window of 0, a smoothing gain above 1)
   */
  public static PredictorName parse(String text) {
    Objects.requireNonNull(text, "name");
    String s = text.strip();
    for (Family f : Family.values()) {
      Matcher m = f.pattern.matcher(s);
      if (m.matches()) {
        List<String> raw = new ArrayList<>();
        for (int i = 1; i <= m.groupCount(); i++) {
          raw.add(m.group(i));
        }
        try {
          PredictorName name = of(f, raw);
          name.check();
          return name;
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "bad predictor name '" + text + "': " + e.getMessage(), e);
        }
      }
    }
    throw new IllegalArgumentException(
        "unknown predictor: '" + text + "' (see docs/predictors.md for the names)");
  }

  /** The name of a family with raw arguments, made canonical (numbers, case, default trim). */
  static PredictorName of(Family family, List<String> raw) {
    List<String> args = new ArrayList<>();
    for (int i = 0; i < family.slots.size(); i++) {
      String a = raw.get(i);
      args.add(
          switch (family.slots.get(i)) {
            case "n" -> Integer.toString(Integer.parseInt(a));
            case "x" -> trimZeros(Double.parseDouble(a));
            case "vars" -> a.toUpperCase(Locale.ROOT);
            case "degree" -> a == null || a.equals("1") ? "" : "^" + a;
            default -> fillOf(a).label();
          });
    }
    if (family == Family.TRIM_FRACTION && args.get(1).equals("0.2")) {
      return new PredictorName(Family.TRIM, args.subList(0, 1));
    }
    return new PredictorName(family, args);
  }

  /** The canonical name of a family with the given arguments, one per slot. */
  static String render(Family family, Object... args) {
    List<String> raw = new ArrayList<>();
    for (Object a : args) {
      raw.add(a instanceof Fill f ? f.label() : String.valueOf(a));
    }
    return of(family, raw).toString();
  }

  /** Builds the predictor once, so that bad parameters fail in {@link #parse}. */
  private void check() {
    if (family != Family.REGRESSION) {
      predictor(ProbeSeries.NONE, null);
    } else {
      regression();
    }
  }

  /** Whether the predictor needs a network probe series (a regression on N). */
  public boolean needsNetwork() {
    return family == Family.REGRESSION && args.get(0).contains("N");
  }

  /** Whether the predictor needs a disk load series (a regression on D). */
  public boolean needsDisk() {
    return family == Family.REGRESSION && args.get(0).contains("D");
  }

  /** Whether this is a regression model of paper 003's Table 1 (or one of its polynomials). */
  public boolean isRegression() {
    return family == Family.REGRESSION;
  }

  /**
   * The predictor this name stands for.
   *
   * <p>With size classes, a univariate rule predicts each sample from the earlier samples of its
   * own class (paper 003 section 3.3.3), a regression model is fitted to them, and {@code default}
   * and {@code published} are Braid's rules over the whole series with the classes as contexts;
   * without, every rule sees every sample.
   *
   * @param probes the probe series (needed by regression models; {@code published} uses them when
   *     there are any)
   * @param classes the size classes, or null for none
   * @throws NullPointerException if probes is null
   * @throws IllegalArgumentException if a regression model lacks the probe series it needs
   */
  public Predictor predictor(ProbeSeries probes, SizeClasses classes) {
    Objects.requireNonNull(probes, "probes");
    return switch (family) {
      case DEFAULT ->
          classes == null ? Predictors.defaultUnclassed() : Predictors.defaultPredictor(classes);
      case PUBLISHED -> Predictors.published(probes, classes);
      case REGRESSION -> regressionPredictor(probes, classes);
      default -> classes == null ? univariate() : Predictors.sizeClassed(univariate(), classes);
    };
  }

  private Predictor regressionPredictor(ProbeSeries probes, SizeClasses classes) {
    if (needsNetwork() && probes.network().isEmpty()) {
      throw new IllegalArgumentException(this + " needs a network probe series");
    }
    if (needsDisk() && probes.disk().isEmpty()) {
      throw new IllegalArgumentException(this + " needs a disk load series");
    }
    return regression().asPredictor(probes.network(), probes.disk(), classes);
  }

  /** The regression model of a {@link Family#REGRESSION} name. */
  Multivariate regression() {
    String vars = args.get(0);
    int degree = args.get(1).isEmpty() ? 1 : Integer.parseInt(args.get(1).substring(1));
    return Multivariate.polynomial(
        vars.contains("N"), vars.contains("D"), fillOf(args.get(2)), degree);
  }

  private Predictor univariate() {
    return switch (family) {
      case AVG -> Predictors.mean();
      case AVG_N -> Predictors.mean(n(0));
      case AVG_HOURS -> Predictors.meanHours(n(0));
      case MED -> Predictors.median();
      case MED_N -> Predictors.median(n(0));
      case LV -> Predictors.lastValue();
      case AR -> Predictors.autoregression();
      case AR_DAYS -> Predictors.autoregressionDays(n(0));
      case ES -> Predictors.exponentialSmoothing(Double.parseDouble(args.get(0)));
      case TRIM -> Predictors.trimmedMedian(n(0), 0.2);
      case TRIM_FRACTION -> Predictors.trimmedMedian(n(0), Double.parseDouble(args.get(1)));
      case TLIN -> Predictors.timeLinear(n(0));
      case LOGSIZE -> Predictors.logSize(n(0));
      case NEAR -> Predictors.nearestSize(n(0), n(1));
      case LOAD -> Predictors.loadRegression(n(0), true);
      case LOADONLY -> Predictors.loadRegression(n(0), false);
      case LOGAR -> Predictors.logAutoregression(n(0));
      case CONTEXT -> Predictors.contextRegression(n(0));
      case NWS -> Predictors.nws();
      default -> throw new IllegalStateException("not univariate: " + this);
    };
  }

  private int n(int i) {
    return Integer.parseInt(args.get(i));
  }

  private static Fill fillOf(String label) {
    for (Fill f : Fill.values()) {
      if (f.label().equalsIgnoreCase(label)) {
        return f;
      }
    }
    throw new IllegalArgumentException("no fill named '" + label + "'");
  }

  static String trimZeros(double d) {
    String s = Double.toString(d);
    return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
  }

  /**
   * Every name Braid uses: the candidates of the default rule (which include Figure 4 and the NWS
   * rules), {@code NWS}, {@code default}, {@code published}, the nine models of Table 1 and their
   * polynomials of degree 2 to 4 in N or D. Other windows and gains are valid names too.
   */
  public static List<PredictorName> catalogue() {
    List<PredictorName> out = new ArrayList<>();
    for (Predictor p : Predictors.defaultCandidates()) {
      out.add(parse(p.name()));
    }
    for (Family f : List.of(Family.NWS, Family.DEFAULT, Family.PUBLISHED)) {
      out.add(of(f, List.of()));
    }
    for (Multivariate m : Multivariate.table1()) {
      out.add(parse(m.name()));
    }
    for (boolean network : new boolean[] {true, false}) {
      for (int degree = 2; degree <= 4; degree++) {
        for (Fill f : Fill.values()) {
          out.add(parse(Multivariate.polynomial(network, !network, f, degree).name()));
        }
      }
    }
    return List.copyOf(out);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PredictorName other && family == other.family && args.equals(other.args);
  }

  @Override
  public int hashCode() {
    return family.hashCode() * 31 + args.hashCode();
  }

  /** The canonical name, such as {@code AVG25}, {@code ES0.3} or {@code G+N+D NoFill}. */
  @Override
  public String toString() {
    return family.render(args);
  }
}
