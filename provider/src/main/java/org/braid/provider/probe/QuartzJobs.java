package org.braid.provider.probe;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks on fixed intervals with Quartz (in-memory job store, a small thread pool). A task
 * never runs twice at once; a task that throws is logged and runs again at its next time.
 *
 * <p>Thread-safe.
 */
public final class QuartzJobs implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(QuartzJobs.class);
  private static final String TASK = "task";

  private final Scheduler scheduler;
  private final Map<String, Duration> intervals = new LinkedHashMap<>();

  /**
   * Creates a stopped scheduler.
   *
   * @param name a name unique in this JVM
   * @param threads worker threads, at least 1
   * @throws IOException if Quartz cannot be set up
   */
  public QuartzJobs(String name, int threads) throws IOException {
    Objects.requireNonNull(name, "name");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be positive: " + threads);
    }
    Properties p = new Properties();
    p.setProperty("org.quartz.scheduler.instanceName", name);
    p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
    p.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
    p.setProperty("org.quartz.threadPool.threadCount", Integer.toString(threads));
    p.setProperty("org.quartz.threadPool.threadNamePrefix", name + "-worker");
    p.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
    p.setProperty("org.quartz.jobStore.misfireThreshold", "60000");
    try {
      scheduler = new StdSchedulerFactory(p).getScheduler();
    } catch (SchedulerException e) {
      throw new IOException("cannot create scheduler " + name + ": " + e.getMessage(), e);
    }
  }

  /** The job Quartz runs: calls the task in its data map. */
  @DisallowConcurrentExecution
  public static final class TaskJob implements Job {
    @Override
    public void execute(JobExecutionContext context) {
      Runnable task = (Runnable) context.getMergedJobDataMap().get(TASK);
      try {
        task.run();
      } catch (RuntimeException e) {
        LOG.warn("job {} failed: {}", context.getJobDetail().getKey().getName(), e.toString());
      }
    }
  }

  /**
   * Runs {@code task} every {@code interval}, the first time at once when started.
   *
   * @throws IllegalArgumentException if the interval is not positive or the name is taken
   * @throws IOException if Quartz refuses the job
   */
  public synchronized void every(String name, Duration interval, Runnable task) throws IOException {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(task, "task");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval of " + name + " must be positive: " + interval);
    }
    if (intervals.containsKey(name)) {
      throw new IllegalArgumentException("job name already used: " + name);
    }
    JobDataMap data = new JobDataMap();
    data.put(TASK, task);
    JobDetail job = JobBuilder.newJob(TaskJob.class).withIdentity(name).usingJobData(data).build();
    Trigger trigger =
        TriggerBuilder.newTrigger()
            .withIdentity(name)
            .startNow()
            .withSchedule(
                SimpleScheduleBuilder.simpleSchedule()
                    .withIntervalInMilliseconds(interval.toMillis())
                    .repeatForever()
                    .withMisfireHandlingInstructionNextWithRemainingCount())
            .build();
    try {
      scheduler.scheduleJob(job, trigger);
    } catch (SchedulerException e) {
      throw new IOException("cannot schedule " + name + ": " + e.getMessage(), e);
    }
    intervals.put(name, interval);
  }

  /** The scheduled jobs and their intervals, in the order they were added. */
  public synchronized Map<String, Duration> intervals() {
    return Map.copyOf(intervals);
  }

  /** Starts running the jobs. */
  public void start() throws IOException {
    try {
      scheduler.start();
    } catch (SchedulerException e) {
      throw new IOException("cannot start scheduler: " + e.getMessage(), e);
    }
  }

  /** Stops the scheduler, waiting for running jobs to finish. */
  @Override
  public void close() {
    try {
      scheduler.shutdown(/* waitForJobsToComplete= */ true);
    } catch (SchedulerException e) {
      LOG.warn("scheduler shutdown: {}", e.toString());
    }
  }
}
