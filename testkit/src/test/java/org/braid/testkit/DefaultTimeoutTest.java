package org.braid.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The build gives every module's tests a default JUnit timeout (the parent POM's surefire
 * configuration, {@code test.timeout}), so no test can hang CI.
 */
class DefaultTimeoutTest {

  private static Optional<String> seen = Optional.empty();

  @RegisterExtension
  static final BeforeEachCallback READ_CONFIGURATION =
      (ExtensionContext context) ->
          seen = context.getConfigurationParameter("junit.jupiter.execution.timeout.default");

  @Test
  void defaultTimeout_isConfiguredByTheBuild() {
    String timeout = seen.orElse("(not set)");
    assertTrue(timeout.matches("\\d+ *(ns|μs|ms|s|m|h|d)"), timeout);
  }
}
