// zlib (zlib1g-dev): gzip decompression of track files; only RunWalkTracks imports it.
#include <zlib.h>
