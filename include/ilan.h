/* ilan.h — ilan's public extension API (the only header users include). */
#ifndef ILAN_H
#define ILAN_H

#ifdef __cplusplus
extern "C" {
#endif

/* The ilan release this program runs on, e.g. "0.1.0". A program can prove it
 * runs on ilan rather than GNU libgomp with dlsym(RTLD_DEFAULT, "ilan_version"). */
const char *ilan_version(void);

#ifdef __cplusplus
}
#endif

#endif /* ILAN_H */
