// The system SQLite (Debian: libsqlite3-dev) for QuakeBundleKit on platforms without Apple's `SQLite3` module.
#include <sqlite3.h>
