/* export.h — marks the entry points the shared library exports. */
#ifndef ILAN_ABI_EXPORT_H
#define ILAN_ABI_EXPORT_H

#define ILAN_EXPORT __attribute__((visibility("default")))

#endif
