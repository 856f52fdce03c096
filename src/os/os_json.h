/*
 * The inspect/snapshot JSON document (schema "ntune-inspect" version 1, described
 * in ntune(8)): its identity and every conversion between the structs of os.h and
 * their JSON form, both directions. collect.h collects a document, snapshot.h
 * answers os_ops from one.
 */
#ifndef NTUNE_OS_JSON_H
#define NTUNE_OS_JSON_H

#include <jansson.h>

#include "os/os.h"

#define OS_JSON_SCHEMA		"ntune-inspect"
#define OS_JSON_VERSION		1

const char *os_tunable_kind_name(enum os_tunable_kind);
enum os_tunable_kind os_tunable_kind_parse(const char *);

/* struct <-> JSON. */
json_t	*os_json_system(const struct os_system *);
json_t	*os_json_cpu(const struct os_cpu *);
json_t	*os_json_nic(const struct os_nic *);
int	 os_json_to_system(json_t *, struct os_system *);
int	 os_json_to_cpu(json_t *, struct os_cpu *);
int	 os_json_to_nic(json_t *, struct os_nic *);
/* Member key of o as a string ("" if it is not one) or a count (0 if not a positive integer). */
void	 os_json_str(json_t *o, const char *key, char *buf, size_t len);
uint64_t os_json_u64(json_t *o, const char *key);
/* The raw counters of `ntune snapshot`: n records as an array, and one record back. */
json_t	*os_json_cpu_times(const struct os_cpu_times *, size_t n);
void	 os_json_to_cpu_times(json_t *, struct os_cpu_times *);
json_t	*os_json_if_counters(const struct os_if_counters *, size_t n);
void	 os_json_to_if_counters(json_t *, struct os_if_counters *);
json_t	*os_json_irqs(const struct os_irq *, size_t n);
void	 os_json_to_irq(json_t *, struct os_irq *);

#endif
