// Apart from the bindings' loader, so that the CLI's error mapping (loaded at every start) does not load it.

/**
 * No SQLite binding can be loaded in this Node (the message says why and what fixes it, in one
 * line), or CRM_SQLITE names none (`badSetting`).
 */
export class SqliteUnavailableError extends Error {
  constructor(
    message: string,
    readonly badSetting = false,
  ) {
    super(message);
    this.name = 'SqliteUnavailableError';
  }
}

/**
 * The directory or file of a database could not be created: no permission, a read-only disk, a file
 * where a directory should be (a container whose HOME does not exist). The message names the path and
 * why, in one line.
 */
export class DatabaseFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseFileError';
  }
}
