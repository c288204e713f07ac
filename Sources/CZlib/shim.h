#include <zlib.h>

// inflateInit2 is a macro, which Swift cannot call.
static inline int qb_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
