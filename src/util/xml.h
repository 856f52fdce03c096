/* Well-formedness of XML text (the config.xml of OPNsense and pfSense). */
#ifndef NTUNE_UTIL_XML_H
#define NTUNE_UTIL_XML_H

#include <stddef.h>

/*
 * 0 when text is well-formed XML: tags nest and close, every '&' starts a reference
 * (&amp; &lt; &gt; &quot; &apos; &#N; &#xH;), every '<' starts markup, attribute values
 * are quoted; with an XML declaration, one root element. Without one, a list of
 * elements (pasted <item>s) is read as well. -1, *line (from 1) and *why (malloc'd)
 * naming the first fault otherwise.
 */
int	 util_xml_check(const char *text, size_t len, int *line, char **why);

#endif
