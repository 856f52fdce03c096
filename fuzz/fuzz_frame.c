/*
 * What the sink parses from the wire (lab_frame_parse) and the rfc2544 list
 * parsers: the first byte picks which; the rest is a frame or a list.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab/rfc2544.h"
#include "lab/traffic.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_frame_info fi;
	struct rfc2544_config c;
	char *text, *cause = NULL;

	if (size < 1)
		return 0;
	if (data[0] < 0xc0) {
		(void)lab_frame_parse(data + 1, size - 1, &fi);
		return 0;
	}
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	rfc2544_config_init(&c);
	if (data[0] & 1)
		(void)rfc2544_parse_loads(text, &c, &cause);
	else
		(void)rfc2544_parse_sizes(text, &c, &cause);
	free(cause);
	free(text);
	return 0;
}
