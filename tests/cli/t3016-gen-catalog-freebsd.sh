#!/bin/sh
# scripts/gen-catalog-freebsd.py on a small constructed tree: OIDs added at run time under
# nodes made at attach (SYSCTL_ADD_NODE named by device_get_name, device_get_sysctl_tree,
# a global node set at module load) enter the catalogue with their placement, and a kenv
# read of a name a sysctl has makes it "both", never loader-only.
. "$(dirname "$0")/lib.sh"
GEN="$SRCDIR/scripts/gen-catalog-freebsd.py"

# tree DIR: a kernel tree of four files, written here (no code from any real tree).
tree() {
	mkdir -p "$1/sys/kern" "$1/sys/dev/frob" "$1/sys/netinet" &&
	cat >"$1/sys/kern/kern_root.c" <<-\EOC &&
	SYSCTL_ROOT_NODE(OID_AUTO, hw, CTLFLAG_RW, 0, "hardware");
	SYSCTL_ROOT_NODE(OID_AUTO, net, CTLFLAG_RW, 0, "network");
	SYSCTL_NODE(_net, OID_AUTO, inet, CTLFLAG_RW, 0, "inet");
	SYSCTL_NODE(_net_inet, OID_AUTO, tcp, CTLFLAG_RW, 0, "tcp");
	EOC
	cat >"$1/sys/dev/frob/frob.c" <<-\EOC &&
	static int
	frob_attach(device_t dev)
	{
		struct frob_softc *sc = device_get_softc(dev);
		struct sysctl_oid_list *kids, *top;
		char *env;

		sc->tree = SYSCTL_ADD_NODE(&sc->ctx, SYSCTL_STATIC_CHILDREN(_hw), OID_AUTO,
		    device_get_name(dev), CTLFLAG_RD, 0, "");
		SYSCTL_ADD_INT(&sc->ctx, SYSCTL_CHILDREN(sc->tree), OID_AUTO, "chatty",
		    CTLFLAG_RW, &sc->chatty, 0, "");
		SYSCTL_ADD_INT(&sc->ctx, SYSCTL_CHILDREN(sc->tree), OID_AUTO, "model",
		    CTLFLAG_RD, &sc->model, 0, "");
		if ((env = kern_getenv("hw.frob.chatty")) != NULL)
			freeenv(env);
		top = kids = SYSCTL_CHILDREN(device_get_sysctl_tree(dev));
		SYSCTL_ADD_INT(&sc->ctx, top, OID_AUTO, "knob", CTLFLAG_RW, &sc->knob, 0, "");
		return (0);
	}
	DRIVER_MODULE(frob, pci, frob_driver, 0, 0);
	EOC
	cat >"$1/sys/netinet/stack_x.c" <<-\EOC
	struct sysctl_oid *x_root;

	static void
	x_init_sysctls(void)
	{
		struct sysctl_oid *sub;

		sub = SYSCTL_ADD_NODE(&x_ctx, SYSCTL_CHILDREN(x_root), OID_AUTO, "probe",
		    CTLFLAG_RW, 0, "");
		SYSCTL_ADD_U32(&x_ctx, SYSCTL_CHILDREN(sub), OID_AUTO, "rate", CTLFLAG_RW,
		    &x_rate, 0, "");
	}

	static int
	x_load(void)
	{
		x_root = SYSCTL_ADD_NODE(&x_ctx, SYSCTL_STATIC_CHILDREN(_net_inet_tcp),
		    OID_AUTO, "xstack", CTLFLAG_RW, 0, "");
		x_init_sysctls();
		return (0);
	}
	EOC
}

test_expect_success 'OIDs under nodes made at run time get their names and placement' '
	tree t &&
	python3 "$GEN" "t1=t,14.0,x/y,0000000000000000000000000000000000000000,2026-12-05,test" >cat.tsv &&
	cat cat.tsv &&
	grep -q "^hw.frob	node	" cat.tsv &&
	grep -q "^hw.frob.chatty	sysctl	int	both	RW	t1	t1:sys/dev/frob/frob.c:10 fetch:sys/dev/frob/frob.c:14$" cat.tsv &&
	grep -q "^hw.frob.model	sysctl	int	read-only	RD	" cat.tsv &&
	grep -q "^dev.%s.%d.knob	sysctl	int	runtime	RW	" cat.tsv &&
	grep -q "^net.inet.tcp.xstack.probe.rate	sysctl	u32	runtime	RW	" cat.tsv &&
	! grep -q "^hw.frob.chatty	tunable" cat.tsv &&
	! grep -q "^hw\\.\\*" cat.tsv
'
test_expect_success 'a kenv read with no sysctl of that name stays a loader tunable' '
	sed -i "s/\"hw.frob.chatty\"/\"hw.frob.quiet\"/" t/sys/dev/frob/frob.c &&
	python3 "$GEN" "t1=t,14.0,x/y,0000000000000000000000000000000000000000,2026-12-05,test" >cat2.tsv &&
	grep -q "^hw.frob.quiet	tunable	string	loader	-	" cat2.tsv &&
	grep -q "^hw.frob.chatty	sysctl	int	runtime	RW	" cat2.tsv
'
test_expect_success 'a wrapper macro declares at each call (its template nothing), and an #ifdef option is marked' '
	mkdir -p w/sys/dev/blip w/sys/conf w/sys/amd64/conf w/sys/kern w/sys/netinet &&
	printf "SYSCTL_ROOT_NODE(OID_AUTO, kern, CTLFLAG_RW, 0, \"k\");\nSYSCTL_ROOT_NODE(OID_AUTO, net, CTLFLAG_RW, 0, \"n\");\nSYSCTL_NODE(_net, OID_AUTO, inet, CTLFLAG_RW, 0, \"i\");\nSYSCTL_NODE(_kern, OID_AUTO, blip, CTLFLAG_RW, 0, \"b\");\n" >w/sys/kern/kern_root.c &&
	cat >w/sys/dev/blip/blip.h <<-\EOC &&
	#define	BLIP_SYSCTL_INT(_name, _default, _descr)		\\
	int blip_##_name = (_default);				\\
	SYSCTL_INT(_kern_blip, OID_AUTO, _name, CTLFLAG_RWTUN, &blip_##_name, 0, _descr)
	EOC
	cat >w/sys/dev/blip/blip.c <<-\EOC &&
	#include "blip.h"
	#define	BLIP_NAME	beep
	#define	BLIP_TWICE(n)	BLIP_SYSCTL_INT(n, 0, #n)
	static BLIP_SYSCTL_INT(halt, 1, "halt");
	BLIP_TWICE(BLIP_NAME);
	#define	BLIP_PREFIX	"kern." BLIP_MOD "."
	#define	BLIP_MOD	"blip"
	TUNABLE_INT(BLIP_PREFIX "depth", &blip_depth);
	EOC
	cat >w/sys/netinet/ip_x.c <<-\EOC &&
	#ifdef XSTEALTH
	SYSCTL_INT(_net_inet, OID_AUTO, hush, CTLFLAG_RW, &hush, 0, "");
	#else
	SYSCTL_INT(_net_inet, OID_AUTO, loud, CTLFLAG_RW, &loud, 0, "");
	#endif
	#ifdef XGENERIC
	SYSCTL_INT(_net_inet, OID_AUTO, plain, CTLFLAG_RW, &plain, 0, "");
	#endif
	EOC
	printf "XSTEALTH\nXGENERIC\topt_x.h\n" >w/sys/conf/options &&
	printf "options\tXGENERIC\n" >w/sys/amd64/conf/GENERIC &&
	python3 "$GEN" "t1=w,14.0,x/y,0000000000000000000000000000000000000000,2026-12-07,test" >w.tsv &&
	cat w.tsv &&
	grep -q "^kern.blip.halt	sysctl	int	both	RWTUN	t1	t1:sys/dev/blip/blip.c:4$" w.tsv &&
	grep -q "^kern.blip.beep	sysctl	int	both	RWTUN	t1	t1:sys/dev/blip/blip.c:5$" w.tsv &&
	! grep -q "^kern.blip._name" w.tsv &&
	grep -q "^kern.blip.depth	tunable	int	loader	-	t1	t1:sys/dev/blip/blip.c:8$" w.tsv &&
	grep -q "^net.inet.hush	.*t1:sys/netinet/ip_x.c:2 option:XSTEALTH$" w.tsv &&
	grep -q "^net.inet.loud	.*t1:sys/netinet/ip_x.c:4$" w.tsv &&
	grep -q "^net.inet.plain	.*t1:sys/netinet/ip_x.c:7$" w.tsv
'
test_done
