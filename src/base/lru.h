/* lru.h — an intrusive least-recently-used list: the order in which a bounded table forgets its entries. */
#ifndef ILAN_BASE_LRU_H
#define ILAN_BASE_LRU_H

#include <stddef.h>

/* The links an entry embeds (NULL, NULL while it is in no list). */
struct lru_link {
    struct lru_link *prev; /* more recently used neighbour (toward the head) */
    struct lru_link *next; /* less recently used neighbour (toward the tail) */
};

/* A list: the most recently used entry first. Zero-initialised: empty. */
struct lru_list {
    struct lru_link *head; /* most recently used */
    struct lru_link *tail; /* least recently used */
};

/* The entry of type `type` whose `member` is the link l (NULL for NULL). */
#define LRU_ENTRY(l, type, member) \
    ((l) ? (type *)(void *)((char *)(l) - offsetof(type, member)) : (type *)NULL)

/* Removes l from list (it must be in it). The caller serialises. */
static inline void lru_unlink(struct lru_list *list, struct lru_link *l)
{
    if (l->prev)
        l->prev->next = l->next;
    else
        list->head = l->next;
    if (l->next)
        l->next->prev = l->prev;
    else
        list->tail = l->prev;
    l->prev = l->next = NULL;
}

/* Puts l (in no list) first, as the most recently used. */
static inline void lru_push_front(struct lru_list *list, struct lru_link *l)
{
    l->prev = NULL;
    l->next = list->head;
    if (list->head)
        list->head->prev = l;
    else
        list->tail = l;
    list->head = l;
}

#endif
