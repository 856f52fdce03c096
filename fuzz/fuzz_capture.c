/*
 * Fuzzes the reader of a capture (src/remote/capture.c): the output of the capture
 * script or a user's paste of it, then, when it parses, the platform layer over it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "os/os.h"
#include "remote/capture.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capture_set set;
	struct os_ctx *ctx;
	char *cause = NULL;

	(void)capture_is_capture((const char *)data, size);
	if (capture_parse((const char *)data, size, "fuzz", &set, &cause) == 0) {
		if ((ctx = os_open_captures(&set, &cause)) != NULL)
			os_close(ctx);
		capture_set_free(&set);
	}
	free(cause);
	return 0;
}
