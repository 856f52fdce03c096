/* Replays every file of a corpus directory through a fuzz target (builds without libFuzzer). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
replay(const char *path)
{
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	char chunk[65536];

	if ((f = fopen(path, "rb")) == NULL) {
		perror(path);
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (len + n > cap) {
			cap = (len + n) * 2;
			if ((buf = realloc(buf, cap)) == NULL)
				abort();
		}
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(f);
	LLVMFuzzerTestOneInput((const uint8_t *)(buf ? buf : ""), len);
	free(buf);
	return 0;
}

int
main(int argc, char **argv)
{
	DIR *d;
	struct dirent *de;
	char path[4096];
	int count = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	if ((d = opendir(argv[1])) == NULL) {
		/* An empty corpus still exercises the empty input. */
		LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", argv[1], de->d_name);
		if (replay(path) == 0)
			count++;
	}
	closedir(d);
	printf("replayed %d inputs\n", count);
	return 0;
}
