//! fers-tools: shared code of the command-line tools.
