/* hwloc_xml.c - writes an hwloc XML file of a synthetic machine with a NUMA distance matrix, which synthetic descriptions cannot carry.
 *
 *   gcc -O1 -o /tmp/hwloc_xml sim/machines/hwloc_xml.c -lhwloc
 *   /tmp/hwloc_xml "pack:2 numa:4 l3:2 core:4 pu:2" sim/machines/zen4-2x32.xml D00 D01 ... D77
 *
 * The distances are the N x N matrix row by row (10 = local), N the
 * description's NUMA node count. `ilan sim --machine FILE.xml` then reads
 * the machine through the runtime's topology code with those distances
 * instead of its fallback (10 / 20 same package / 30). */
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s SYNTHETIC OUT.xml D00 D01 ... (N x N distances)\n", argv[0]);
        return 2;
    }
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) || hwloc_topology_set_synthetic(t, argv[1]) ||
        hwloc_topology_load(t)) {
        fprintf(stderr, "cannot load the synthetic description '%s'\n", argv[1]);
        return 1;
    }
    int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
    if (n < 1 || argc != 3 + n * n) {
        fprintf(stderr, "'%s' has %d NUMA nodes: give %d distances\n", argv[1], n, n * n);
        return 2;
    }
    hwloc_obj_t *nodes = calloc((size_t)n, sizeof *nodes);
    hwloc_uint64_t *values = calloc((size_t)n * (size_t)n, sizeof *values);
    if (!nodes || !values)
        return 1;
    for (int i = 0; i < n; i++)
        nodes[i] = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)i);
    for (int i = 0; i < n * n; i++)
        values[i] = strtoull(argv[3 + i], NULL, 10);
    /* Marked as the OS's latency matrix: the kind the runtime asks hwloc for. */
    hwloc_distances_add_handle_t h = hwloc_distances_add_create(
        t, "NUMALatency", HWLOC_DISTANCES_KIND_FROM_OS | HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0);
    if (!h || hwloc_distances_add_values(t, h, (unsigned)n, nodes, values, 0) ||
        hwloc_distances_add_commit(t, h, 0) || hwloc_topology_export_xml(t, argv[2], 0)) {
        fprintf(stderr, "cannot add the distances or write %s\n", argv[2]);
        return 1;
    }
    free(values);
    free(nodes);
    hwloc_topology_destroy(t);
    return 0;
}
