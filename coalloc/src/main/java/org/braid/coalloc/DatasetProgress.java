package org.braid.coalloc;

/**
 * A snapshot of a running dataset job for progress displays.
 *
 * @param filesDone files verified so far (fetched or skipped as verified earlier)
 * @param filesFailed files given up on
 * @param filesTotal files in the job
 * @param bytesDone bytes of verified files plus the bytes written so far of files in flight
 * @param bytesTotal the dataset's size (files of unknown size count once known)
 * @param rate bytes per second over about the last two seconds
 * @param etaSeconds the time left at that rate, or NaN while no rate is known
 * @param inFlight files being fetched now
 * @param elapsedSeconds seconds since the job started
 */
public record DatasetProgress(
    int filesDone,
    int filesFailed,
    int filesTotal,
    long bytesDone,
    long bytesTotal,
    double rate,
    double etaSeconds,
    int inFlight,
    double elapsedSeconds) {}
