package org.braid.infoprovider.logs;

import org.braid.infoprovider.TransferRecord;

/**
 * Turns one log line into a {@link TransferRecord}.
 *
 * <p>Implementations are stateless and thread-safe. Get one from {@link LogFormat#parser()}.
 */
public interface LogParser {

  /**
   * Parses one line (without its line terminator).
   *
   * @return the transfer, or null when the line is well formed but is not a file transfer (an HTTP
   *     404, a directory listing)
   * @throws MalformedLineException if the line is malformed; its reason names the problem
   */
  TransferRecord parse(String line) throws MalformedLineException;
}
