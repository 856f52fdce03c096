#!/bin/sh
# The FreeBSD knowledge base against the generated catalogue of every SYSCTL/TUNABLE
# (share/catalog/freebsd.tsv): the placement of each knob the catalogue has follows its flag.
. "$(dirname "$0")/lib.sh"
CAT="$SRCDIR/share/catalog/freebsd.tsv"
KNOBS="$SRCDIR/share/knobs/freebsd"

# name<TAB>placement<TAB>verified-or-unverified text of every FreeBSD stanza.
kb_rows() {
	awk '
	function flush() { if (n != "") print n "\t" p "\t" v; n = p = v = "" }
	/^name:/ { flush(); n = $2 }
	/^placement:/ { p = $2 }
	/^(verified|unverified):/ { sub(/^[a-z]*:[ \t]*/, ""); v = $0 }
	/^[ \t]*$/ { flush() }
	END { flush() }' "$KNOBS"/*.knob
}

test_expect_success 'every knob the catalogue has sits where its flag puts it (RDTUN loader, RWTUN both, RW sysctl, RD read-only)' '
	kb_rows >kb.tsv &&
	test "$(wc -l <kb.tsv)" -ge 130 &&
	awk -F "\t" "
	NR == FNR { if (\$0 !~ /^#/) cat[\$1] = \$4; next }
	!(\$1 in cat) { next }
	{
		want = cat[\$1]; have = \$2 == \"sysctl\" ? \"runtime\" : \$2
		if (have == want) { ok++; next }
		# Documented exceptions: RWTUN read only at attach (kept loader, said in verified),
		# read-only OIDs an ARM platform also fetches as a tunable.
		if (have == \"loader\" && want == \"both\" && \$3 ~ /attach/) { ok++; next }
		if (have == \"read-only\" && want == \"loader\" && \$3 ~ /CTLFLAG_RD/) { ok++; next }
		print \"placement \" \$1 \": knowledge base \" have \", catalogue \" want; bad++
	}
	END { print ok \" agree\" > \"count\"; exit bad > 0 }" "$CAT" kb.tsv &&
	cat count && test "$(cut -d" " -f1 count)" -ge 100
'
test_expect_success 'the cross-check sees a knob placed against its flag' '
	sed "s/^net.isr.dispatch\t\(.*\)\tboth\tRWTUN/net.isr.dispatch\t\1\tloader\tRDTUN/" "$CAT" >bad.tsv &&
	! cmp -s bad.tsv "$CAT" &&
	CAT=bad.tsv && kb_rows >kb.tsv &&
	! awk -F "\t" "
	NR == FNR { if (\$0 !~ /^#/) cat[\$1] = \$4; next }
	(\$1 in cat) && (\$2 == \"sysctl\" ? \"runtime\" : \$2) != cat[\$1] && !(\$2 == \"loader\" && \$3 ~ /attach/) && !(\$2 == \"read-only\") { bad++ }
	END { exit bad > 0 }" bad.tsv kb.tsv
'
test_expect_success 'every verified FreeBSD fact names a source line, or says why it has none' '
	grep -h "^verified:" "$KNOBS"/*.knob >ver &&
	test "$(wc -l <ver)" -ge 150 &&
	sed -n "/\.[ch]:[0-9]/!p" ver >noline &&
	test "$(wc -l <noline)" -le 6 &&
	! grep -v "no line number" noline | grep -v "^verified: *absent" | grep .
'
test_expect_success 'every FreeBSD driver fact advise uses (maxima, LRO, TSO) names the file and line it was read at' '
	awk "
	function flush() { if (d != \"\" && facts && src !~ /\\.[ch]:[0-9]/) { print d; bad++ } d = src = \"\"; facts = 0 }
	/^driver:/ { flush(); d = \$2 }
	/^(max-rxd|max-txd|default-rxd|lro|tso):/ { facts = 1 }
	/^source:/ { src = src \$0 }
	END { flush(); exit bad > 0 }" "$SRCDIR/share/knobs/drivers/freebsd.drivers" &&
	! grep -q "public copy" "$SRCDIR/share/knobs/drivers/freebsd.drivers"
'
test_done
