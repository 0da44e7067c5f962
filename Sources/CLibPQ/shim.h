#ifndef KEYCAT_CLIBPQ_SHIM_H
#define KEYCAT_CLIBPQ_SHIM_H

/// PostgreSQL's client library (https://www.postgresql.org/docs/current/libpq.html).
/// Everything KeyCat calls is a plain function, so no wrappers are needed yet.
#include <libpq-fe.h>

#endif
