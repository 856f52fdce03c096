/*
 * The tuner on a DUT reached over ssh (tune_remote.c).
 */
#ifndef NTUNE_BENCH_TUNE_REMOTE_H
#define NTUNE_BENCH_TUNE_REMOTE_H

#include <stddef.h>

#include <jansson.h>

struct bench_ctx;
struct bench_remote;
/*
 * Reads the knobs names[0..n-1] on the DUT with its own commands (agentless_read,
 * one ssh command): *values is an object name -> {"actual": value or null, "error":
 * why or null}; a knob agentless mode cannot set (an ifconfig, ethtool or sysfs
 * setting) is not read, its error says why. -1 + cause when the DUT cannot be
 * asked (tune_remote.c).
 */
int	bench_remote_knobs(struct bench_remote *, char *const *names, size_t n, json_t **values,
	    char **cause);
/* A bench_getter over bench_remote_knobs' values (arg: the json_t object). */
int	bench_remote_knob_get(void *arg, const char *name, char **value, char **why);
/*
 * The tuner's candidates for the DUT: path, or the candidate file of the DUT's
 * OS (bench_gens_default), with its dut0/dut1 (and FreeBSD's dev.dut0 device
 * tree) renamed to --dut-in/--dut-out; boot-time knobs allowed in reboot_auto.
 */
struct bench_gens;
int	bench_remote_gens(const struct bench_remote *, const char *path, struct bench_gens *,
	    char **cause);
/*
 * tune --dut --plan: the candidates in the order they would be tried (the list's,
 * or t->diag's, --diagnosis FILE: the plan does not diagnose the DUT), each with why
 * it is there ("order"), its runs, reboots and most DUT time, which
 * fit in the budget, and the totals; schema 1 (README). Nothing is changed.
 */
struct bench_tune;
json_t	*bench_remote_tune_plan(const struct bench_remote *, const struct bench_ctx *,
	    struct bench_tune *);

/*
 * The DUT diagnosed under the tune's load (tune's first baseline run outside the
 * lab): the load of b (ntune gen or pkt-gen) through the DUT, and during it the
 * capture script's two samples secs apart (ceil, at least 1 s), read agentless
 * (capture_run_root: nothing needed on the DUT but sh); doctor_run's diagnosis of
 * them written to path as `ntune diagnose --json` writes it (the lab's
 * DIR/diagnosis.json) and into *d. The DUT is only read. -1 + cause when the load
 * or the capture fails, or the capture has no two samples; nothing is written then.
 */
struct diag_result;
int	bench_remote_tune_diagnose(struct bench_remote *, double secs, const char *path,
	    struct diag_result **d, char **cause);

#endif
