/* SIGINT/SIGTERM during a bench: note it, let the runner stop and restore. */
#include <signal.h>
#include <string.h>

#include "bench/signals.h"

volatile sig_atomic_t bench_interrupted;
static struct sigaction old_int, old_term;

static void
on_signal(int sig)
{
	bench_interrupted = sig;
}

void
bench_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a sleeping runner wakes up at once. */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
}

void
bench_signals_restore(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
}
