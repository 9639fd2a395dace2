package org.braid.coalloc;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Whether the CPU is what limits this process: over a window of {@link #WINDOW_NANOS} it used
 * (nearly) every core itself, or the machine's cores were (nearly) all busy, with this process's
 * work or other work. For a download at memory speed that is the sign that it is bound by the CPU,
 * not by its replicas' links (issue 17: four local mirrors, 2 cores). Then more connections only
 * add work (socket wake-ups, the file's write lock, their own threads) and take the CPU that the
 * whole-file hash, the one task that cannot be spread, needs. Thread-safe.
 */
class CpuBudget {
  /** Length of one measurement window. */
  static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  /** Share of all cores' time over a window from which the process counts as CPU-bound. */
  static final double BUSY = 0.85;

  /** Share of the machine's cores busy over a window (all processes) that counts as CPU-bound. */
  static final double MACHINE_BUSY = 0.9;

  /**
   * The system property that turns the measurement off when {@code false} (every flow always
   * fetches), e.g. {@code BRAID_JAVA_OPTS=-Dbraid.cpuLimit=false}, to compare within one build.
   */
  static final String PROPERTY = "braid.cpuLimit";

  /** No measurement: never busy (the dataset path, tests that do not ask for one). */
  static final CpuBudget NONE = new CpuBudget(() -> -1, () -> -1, System::nanoTime, 1);

  private final LongSupplier cpuNanos;
  private final DoubleSupplier machineLoad;
  private final LongSupplier wallNanos;
  private final int cores;
  private long windowStart = -1;
  private long cpuAtStart;
  private boolean busy;

  /**
   * A budget over {@code cores} cores reading the process's CPU time ({@code cpuNanos}, negative
   * when unknown) against the wall clock {@code wallNanos}, and the share of the machine's cores
   * busy since it was last asked ({@code machineLoad}, 0 to 1, negative when unknown).
   */
  CpuBudget(LongSupplier cpuNanos, DoubleSupplier machineLoad, LongSupplier wallNanos, int cores) {
    this.cpuNanos = cpuNanos;
    this.machineLoad = machineLoad;
    this.wallNanos = wallNanos;
    this.cores = Math.max(1, cores);
  }

  /**
   * This JVM's CPU time against the real clock. The management classes that tell it are loaded only
   * when {@link #busy} is first asked (a download at memory speed): loading them cost a run about
   * 35 ms (StartupClock); where the JVM cannot tell its CPU time, never busy.
   */
  static CpuBudget process() {
    if ("false".equals(System.getProperty(PROPERTY))) {
      return NONE;
    }
    return new CpuBudget(
        () -> ProcessCpu.BEAN == null ? -1 : ProcessCpu.BEAN.getProcessCpuTime(),
        () -> ProcessCpu.BEAN == null ? -1 : ProcessCpu.BEAN.getCpuLoad(),
        System::nanoTime,
        Runtime.getRuntime().availableProcessors());
  }

  /** Holds the JVM's operating-system bean, loaded on first use. */
  private static final class ProcessCpu {
    static final OperatingSystemMXBean BEAN =
        ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);

    private ProcessCpu() {}
  }

  /** The process's CPU time in nanoseconds as measured; negative when unknown. */
  long cpuNanos() {
    return cpuNanos.getAsLong();
  }

  /** The cores of the machine (as the JVM sees them). */
  int cores() {
    return cores;
  }

  /**
   * Fetching connections worth keeping busy when the process is CPU-bound: one core for the hash,
   * the others for the connections, at least one.
   */
  int connectionsWhenBusy() {
    return Math.max(1, cores - 1);
  }

  /**
   * Whether, over the last full window, the process used at least {@link #BUSY} of all cores, or
   * the machine's cores were at least {@link #MACHINE_BUSY} busy; false until one has passed.
   */
  synchronized boolean busy() {
    long cpu = cpuNanos.getAsLong();
    if (cpu < 0) {
      return false;
    }
    long now = wallNanos.getAsLong();
    if (windowStart < 0) {
      windowStart = now;
      cpuAtStart = cpu;
      machineLoad.getAsDouble(); // starts the machine's measurement at the window's start
      return false;
    }
    long wall = now - windowStart;
    if (wall >= WINDOW_NANOS) {
      busy = cpu - cpuAtStart >= BUSY * cores * wall || machineLoad.getAsDouble() >= MACHINE_BUSY;
      windowStart = now;
      cpuAtStart = cpu;
    }
    return busy;
  }
}
