#!/usr/bin/env python3
# TuneD's own reading of a profile, as the oracle of t3507: the [sysctl]-type options TuneD's
# loader (tuned/profiles/loader.py of the package scripts/deps.sh extracts, never installs)
# gives for the profile whose tuned.conf is argv[1], includes merged, as JSON {name: value};
# {"refused": why} when TuneD's loader refuses the file. Values as the sysctl plugin takes them
# (its commands.unquote, plugins/plugin_sysctl.py:75); a conditional unit (uname_regex or
# cpuinfo_regex, applied only on matching machines) is left out, as ntune leaves it out.
# Nothing is applied: only the loader, locator, merger and factory classes run. PYTHONPATH
# must hold the package's tuned/.
import json
import logging
import os
import sys

logging.disable(logging.CRITICAL)
import tuned.profiles.factory as factory  # noqa: E402
import tuned.profiles.loader as loader  # noqa: E402
import tuned.profiles.locator as locator  # noqa: E402
import tuned.profiles.merger as merger  # noqa: E402
import tuned.profiles.variables as variables  # noqa: E402
from tuned.utils.commands import commands  # noqa: E402

path = os.path.abspath(sys.argv[1])
profile_dir = os.path.dirname(path)
dirs = [os.path.dirname(profile_dir)] + sys.argv[2:]
ld = loader.Loader(locator.Locator(dirs), factory.Factory(), merger.Merger(), None,
                   variables.Variables())
try:
    p = ld.load([os.path.basename(profile_dir)])
except Exception as e:  # TuneD refuses the profile: say so, the test compares
    print(json.dumps({"refused": "%s: %s" % (type(e).__name__, e)}))
    sys.exit(0)
out = {}
cmd = commands()
# The instances are applied by priority, lowest first, a stable sort (tuned/units/manager.py:76-80,
# default consts.CFG_DEF_DEFAULT_INSTANCE_PRIORITY 0): of two that set one name, the later wins.
units = [u for u in p.units.values()
         if u.type == "sysctl" and u.enabled and u.uname_regex is None and u.cpuinfo_regex is None]
units.sort(key=lambda u: int(u.options.get("priority", 0)))
for unit in units:
    out.update({k: cmd.unquote(v) for k, v in unit.options.items() if k != "priority"})
print(json.dumps(out, sort_keys=True))
