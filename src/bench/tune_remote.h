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
 * Reads the knobs names[0..n-1] on the DUT with one `ntune verify - --json` there
 * (a profile of the names; the values are not set, only compared): *values is an
 * object name -> {"actual": value or null, "error": why or null}. -1 + cause when
 * the DUT cannot be asked (tune_remote.c).
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
 * tune --dut --plan: the candidates in the order they would be tried (the list's:
 * the DUT is not diagnosed), each with its runs, reboots and most DUT time, which
 * fit in the budget, and the totals; schema 1 (README). Nothing is changed.
 */
struct bench_tune;
json_t	*bench_remote_tune_plan(const struct bench_remote *, const struct bench_ctx *,
	    struct bench_tune *);

#endif
