package org.braid.cli.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LogbackServiceProvider;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.CoreConstants;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J binding of the {@code braid} command: logback's, configured by {@link LogConfigurator}
 * directly instead of through logback's {@code ContextInitializer}, whose version checks, service
 * look-up and timing message cost every start about 20 ms (it spins method-handle classes for one
 * string concatenation). {@link #select()} makes SLF4J use it; anything logback's own start-up
 * would do differently ({@code -Dlogback.configurationFile}, {@code -Dlogback.statusListenerClass})
 * is left to logback, as before.
 */
public final class LogProvider implements SLF4JServiceProvider {

  /** The system property naming SLF4J's provider (SLF4J 2.0.9 and later). */
  static final String PROVIDER_PROPERTY = "slf4j.provider";

  /** SLF4J's own reporting level; it announces an explicitly chosen provider at INFO. */
  static final String VERBOSITY_PROPERTY = "slf4j.internal.verbosity";

  private final LoggerContext context = new LoggerContext();
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final LogbackMDCAdapter mdc = new LogbackMDCAdapter();
  private SLF4JServiceProvider logback;

  /** For SLF4J, which instantiates the class named by {@value #PROVIDER_PROPERTY}. */
  public LogProvider() {}

  /**
   * Makes SLF4J use this provider, unless a provider was already chosen with {@value
   * #PROVIDER_PROPERTY}. Call before the first logger is made (the command's {@code main}).
   */
  public static void select() {
    if (System.getProperty(PROVIDER_PROPERTY) == null) {
      System.setProperty(PROVIDER_PROPERTY, LogProvider.class.getName());
      if (System.getProperty(VERBOSITY_PROPERTY) == null) {
        System.setProperty(VERBOSITY_PROPERTY, "WARN");
      }
    }
  }

  /** Whether logback's own start-up is asked for by a system property. */
  static boolean logbackAskedFor() {
    return System.getProperty("logback.configurationFile") != null
        || System.getProperty("logback.statusListenerClass") != null;
  }

  @Override
  public void initialize() {
    if (logbackAskedFor()) {
      logback = new LogbackServiceProvider();
      logback.initialize();
      return;
    }
    context.setName(CoreConstants.DEFAULT_CONTEXT_NAME);
    context.setMDCAdapter(mdc);
    LogConfigurator configurator = new LogConfigurator();
    configurator.setContext(context);
    configurator.configure(context);
    context.start();
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return logback != null ? logback.getLoggerFactory() : context;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return logback != null ? logback.getMarkerFactory() : markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return logback != null ? logback.getMDCAdapter() : mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return LogbackServiceProvider.REQUESTED_API_VERSION;
  }
}
