/*
 * SIGINT and SIGTERM during a bench (signals.c).
 */
#ifndef NTUNE_BENCH_SIGNALS_H
#define NTUNE_BENCH_SIGNALS_H

#include <signal.h>

/* Set by the SIGINT/SIGTERM handler bench_signals_install() installs: the signal number. */
extern volatile sig_atomic_t bench_interrupted;
void	bench_signals_install(void);
void	bench_signals_restore(void);

#endif
