# SPDX-License-Identifier: GPL-2.0-or-later
# data/: the man page, the bash completion and the annotated example
# settings file, installed where a distribution's package puts them.
dist_man1_MANS = data/fabtop.1
dist_doc_DATA = data/fabtoprc.example
bashcompletiondir = $(BASH_COMPLETION_DIR)
EXTRA_DIST += data/fabtop.bash-completion

# bash-completion loads completions by command name: the file is "fabtop" there.
install-data-local:
	$(MKDIR_P) '$(DESTDIR)$(bashcompletiondir)'
	$(INSTALL_DATA) '$(srcdir)/data/fabtop.bash-completion' '$(DESTDIR)$(bashcompletiondir)/fabtop'
uninstall-local:
	rm -f '$(DESTDIR)$(bashcompletiondir)/fabtop'

# distcheck installs into a private prefix: the completion goes under it too.
AM_DISTCHECK_CONFIGURE_FLAGS = --with-bash-completion-dir='$$(datadir)/bash-completion/completions'

# make installcheck: the installed binary, page, completion and examples, and
# the exporter's systemd unit (no unit directory when configured without).
installcheck-local:
	TOP_SRCDIR='$(abs_top_srcdir)' $(SHELL) '$(srcdir)/tests/install/installcheck.sh' \
		'$(DESTDIR)$(bindir)' '$(DESTDIR)$(man1dir)' '$(DESTDIR)$(bashcompletiondir)' '$(DESTDIR)$(docdir)' \
		'$(installcheck_unitdir)'
EXTRA_DIST += tests/install/installcheck.sh

TESTS += tests/install/man.sh tests/install/completion.sh tests/install/docs.sh
EXTRA_DIST += tests/install/man.sh tests/install/completion.sh tests/install/docs.sh
check_PROGRAMS += tests/unit/test_fabtoprc
TESTS += tests/unit/test_fabtoprc
tests_unit_test_fabtoprc_LDADD = $(TEST_LDADD)
