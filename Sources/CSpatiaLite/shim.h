// spatialite.h uses `sqlite3 *` without including sqlite3.h itself.
#include <sqlite3.h>
#include <spatialite.h>
