// affinity_whatif_bad_xml.c - HWLOC_XMLFILE naming a file that does not
// exist gets one line saying the real machine is used; the program runs.
// ilan-test: threads=2
// ilan-test: env=HWLOC_XMLFILE=/nonexistent/ilan-machine.xml
// ilan-test: expect-output: ^ilan: HWLOC_XMLFILE='/nonexistent/ilan-machine.xml' could not be loaded as a what-if topology. using the real machine$
#include "affinity_common.h"

int main(void)
{
    int T = aff_region(-1, 0);
    CHECK(T == 2, "team of %d", T);
    return 0;
}
