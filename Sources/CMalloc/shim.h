/*
 * shim.h — glibc's malloc tuning that the headless copy uses: malloc_trim, which gives the free pages of
 * every arena back to the system. Each thread that allocates gets an arena of its own, and freed memory
 * stays in it; over a long copy of many files the copy threads' arenas fragment, and the process's size grows
 * although what it holds does not. Other C libraries have no <malloc.h> (or no malloc_trim): nothing is declared.
 */
#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H

#if defined(__linux__) && defined(__has_include)
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
#endif

#endif /* CMALLOC_SHIM_H */
