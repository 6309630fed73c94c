"""Packaging hook (the rest is in pyproject.toml): the wheel carries the data the tools need
beside their packages, in host_tools/shipped/ (host_tools/__init__.py finds it there): the board
files, and the web site when `make web` has built it (make dist does); and it leaves out the
development modules that sit in product packages (DEV_MODULES)."""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

# Development modules inside product packages, left out of the wheel (the development
# packages, host_tools.bench and host_tools.web.testing, pyproject.toml excludes whole).
DEV_MODULES = {("host_tools.web", "bench"), ("host_tools.web", "screenshot")}
# shipped name -> where a checkout keeps it
SHIPPED = {"boards": "boards", "web": os.path.join("build", "web")}
REQUIRED = ("boards",)


class BuildPyWithShipped(build_py):
    def find_package_modules(self, package, package_dir):
        return [m for m in super().find_package_modules(package, package_dir)
                if (m[0], m[1]) not in DEV_MODULES]

    def run(self):
        if not self.editable_mode:
            # setuptools stages into build/lib and never empties it: a module removed from the
            # checkout would otherwise still ship.
            for package in ("core", "hardware", "firmware", "host_tools"):
                shutil.rmtree(os.path.join(self.build_lib, package), ignore_errors=True)
        super().run()
        if self.editable_mode:
            return                          # a checkout finds them where they are
        for name, source in sorted(SHIPPED.items()):
            if not os.path.isdir(source):
                if name in REQUIRED:
                    raise SystemExit("%s/ is missing: the wheel needs it" % source)
                continue
            target = os.path.join(self.build_lib, "host_tools", "shipped", name)
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))


setup(cmdclass={"build_py": BuildPyWithShipped})
