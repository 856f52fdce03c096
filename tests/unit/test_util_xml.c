/* util_xml_check (src/util/xml.c): what is well-formed XML and what is not, with its line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/util.h"
#include "util/xml.h"

static void
test_xml_well_formed_is_read(void **state)
{
	static const char *const good[] = {
		"<?xml version=\"1.0\"?>\n<opnsense>\n<sysctl version=\"1.0.2\">\n"
		    "<item uuid='x'><tunable>a.b</tunable><value>1</value><descr/></item>\n"
		    "</sysctl>\n</opnsense>\n",
		"<a>&amp; &lt; &gt; &quot; &apos; &#38; &#x26; > ]</a>",
		"<!-- a comment <with> & in it -->\n<a><![CDATA[ & < ]]></a>",
		"<!DOCTYPE a>\n<a b = \"&amp;\" c='\"'/>",
		"<item><tunable>x</tunable></item>\n<item><tunable>y</tunable></item>\n",
		"<?xml version=\"1.0\"?>\n<a/>\n<!-- after the root -->\n",
		"",
	};
	char *why = NULL;
	int line = 0;
	size_t i;

	(void)state;
	for (i = 0; i < nitems(good); i++)
		if (util_xml_check(good[i], strlen(good[i]), &line, &why) != 0)
			fail_msg("case %zu: %d: %s", i, line, why);
}

static void
test_xml_faults_are_named_with_their_line(void **state)
{
	static const struct {
		const char	*text;
		int		 line;
		const char	*why;
	} bad[] = {
		{ "<a>\nA & B</a>", 2, "'&' that starts no reference (write &amp;)" },
		{ "<a>&amp</a>", 1, "'&' that starts no reference" },
		{ "<a>&#x;</a>", 1, "'&' that starts no reference" },
		{ "<a>\n1 < 2</a>", 2, "'<' that starts no tag (write &lt;)" },
		{ "<a>\n<b>\n</a>", 2, "<b> without </b>" },
		{ "<a>\n<b></c>\n</a>", 2, "<b> without </b>" },
		{ "<a>\n<b>x</b>\n", 1, "<a> without </a>" },
		{ "</a>", 1, "</a> without <a>" },
		{ "<?xml version=\"1.0\"?>\n<a/>\n<b/>\n", 3, "a second root element <b>" },
		{ "<?xml version=\"1.0\"?>\n<a/>\ntext\n", 3, "text outside the root element" },
		{ "<a b=c/>", 1, "an attribute value of <a> without quotes" },
		{ "<a b/>", 1, "an attribute of <a> without '=\"value\"'" },
		{ "<a b=\"x<y\"/>", 1, "'<' in an attribute value of <a>" },
		{ "<a b=\"x&y\"/>", 1, "'&' in an attribute value of <a>" },
		{ "<a b=\"x/>", 1, "an attribute value of <a> without its closing quote" },
		{ "<a\n<!-- x", 1, "<a> without its closing >" },
		{ "<a>\n<!-- cut", 2, "a comment without its -->" },
		{ "<a><![CDATA[ x </a>", 1, "a CDATA section without its ]]>" },
		{ "<!x>", 1, "'<!' that starts no comment, CDATA or DOCTYPE" },
	};
	char *why;
	int line;
	size_t i;

	(void)state;
	for (i = 0; i < nitems(bad); i++) {
		why = NULL;
		line = 0;
		if (util_xml_check(bad[i].text, strlen(bad[i].text), &line, &why) != -1)
			fail_msg("case %zu was read: %s", i, bad[i].text);
		if (line != bad[i].line || strstr(why, bad[i].why) == NULL)
			fail_msg("case %zu: %d: %s, want %d: %s", i, line, why, bad[i].line, bad[i].why);
		free(why);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xml_well_formed_is_read),
		cmocka_unit_test(test_xml_faults_are_named_with_their_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
