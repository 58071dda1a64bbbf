/* test_lru.c — unit tests of the intrusive least-recently-used list (base/lru.h). */
#include <string.h>
#include "base/lru.h"
#include "unit.h"

struct item {
    int id;              /* which item */
    struct lru_link lru; /* its place in the list */
};

/* The ids from most to least recently used, as digits ("" when empty);
 * also checks that walking back from the tail gives the reverse. */
static const char *order(const struct lru_list *list)
{
    static char out[16];
    unsigned n = 0;
    for (struct item *it = LRU_ENTRY(list->head, struct item, lru); it;
         it = LRU_ENTRY(it->lru.next, struct item, lru))
        out[n++] = (char)('0' + it->id);
    out[n] = 0;
    for (struct lru_link *l = list->tail; l; l = l->prev)
        CHECK(LRU_ENTRY(l, struct item, lru)->id == out[--n] - '0');
    CHECK(n == 0);
    return out;
}

#define CHECK_ORDER(list, want) \
    CHECK(!strcmp(order(list), (want)), "order %s, want %s", order(list), (want))

int main(void)
{
    struct lru_list list = {0};
    struct item it[4] = {{0, {0}}, {1, {0}}, {2, {0}}, {3, {0}}};
    CHECK_ORDER(&list, "");
    for (int i = 0; i < 4; i++)
        lru_push_front(&list, &it[i].lru);
    CHECK_ORDER(&list, "3210");
    /* a use moves an entry to the front, from the middle, the tail or the head */
    lru_unlink(&list, &it[1].lru);
    lru_push_front(&list, &it[1].lru);
    CHECK_ORDER(&list, "1320");
    lru_unlink(&list, &it[0].lru);
    lru_push_front(&list, &it[0].lru);
    CHECK_ORDER(&list, "0132");
    lru_unlink(&list, &it[0].lru);
    CHECK(it[0].lru.prev == NULL && it[0].lru.next == NULL);
    CHECK_ORDER(&list, "132");
    /* forgetting from the tail empties it */
    while (list.tail)
        lru_unlink(&list, list.tail);
    CHECK(list.head == NULL);
    CHECK_ORDER(&list, "");
    CHECK(LRU_ENTRY((struct lru_link *)NULL, struct item, lru) == NULL);
    return unit_report();
}
