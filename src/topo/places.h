/* places.h — the place list (OMP_PLACES resolved on the machine model) and ILAN_RESERVE_CORES. */
#ifndef ILAN_TOPO_PLACES_H
#define ILAN_TOPO_PLACES_H

#include <stdbool.h>
#include "config/parse.h"
#include "topo/topo.h"

/*
 * The process's places, resolved once at start-up. Place numbers are the
 * OpenMP place numbers; each place lists its CPUs as OS CPU numbers (the
 * model's PU os indexes under a what-if machine), which omp_get_place_proc_ids
 * reports, and the real CPUs a thread on it is bound to.
 */
struct places {
    struct place_list os;   /* CPUs of each place, OS (model) numbering */
    struct place_list real; /* real CPUs to bind to, per place (what-if: mapped) */
    int *node;              /* [os.n] NUMA node of each place (that of its first PU) */
    bool is_default;        /* the list is ilan's default (OMP_PLACES unset or invalid) */
};

extern struct places places;

/* ---- pure: text already parsed, model given ----------------------------- */

/* The places of an abstract name on model m: threads (one per PU), cores,
 * ll_caches, numa_domains, sockets (enum places_kind), in model order,
 * only the first `count` when count > 0; cores with excluded[c] set are
 * left out (NULL: none). CPUs are OS numbers. False when nothing is left. */
bool places_from_model(const struct topo_model *m, int kind, unsigned long count,
                       const bool *excluded, struct place_list *out);

/* Keeps the places of `in` (OS numbers) whose CPUs all belong to model m,
 * in order, in *out; *dropped receives how many were not kept. */
bool places_filter(const struct topo_model *m, const struct place_list *in,
                   struct place_list *out, unsigned *dropped);

/* ---- the process's places ------------------------------------------------ */

/* Resolves OMP_PLACES text (NULL: unset) on `topo` with `reserve` cores
 * reserved (already validated), filling `places`. Dropped places get one
 * warning line. Returns false when the text gave no usable place: the
 * caller warns, and the default (cores minus reserved) is used. */
bool places_setup(const char *text, unsigned reserve);

/* The places of GOMP_CPU_AFFINITY (already parsed: a CPU per place, OS
 * numbers), keeping those in this process's set (one warning line when
 * some are dropped). False, changing nothing the caller relies on, when
 * none is usable: the caller warns and sets up the default. */
bool places_setup_cpus(const struct place_list *given);

/* No places at all, as when binding is off (libgomp: omp_get_num_places()
 * is 0 unless OMP_PROC_BIND or OMP_PLACES ask for binding). */
void places_clear(void);

/* omp_display_env's form of the list: "{0},{1:2}" (runs as start:length),
 * written into buf (always NUL-terminated). */
void places_format(char *buf, unsigned long size);

#endif
