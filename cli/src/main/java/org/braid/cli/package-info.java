/** The {@code braid} command line: one class per subcommand, all thin layers over the modules. */
package org.braid.cli;
