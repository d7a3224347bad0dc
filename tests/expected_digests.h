/* The run digests every target must produce (tests/test_main.c checks them
 * after a full run).  They hash everything the unit tests decoded, so any
 * change to a decoded value fails the run on every target, even one that
 * moves all targets alike.  Changing them is a deliberate, reviewed edit:
 * say in the commit why the values moved (a test added, a decoder fixed). */
#ifndef PLUMBOB_EXPECTED_DIGESTS_H
#define PLUMBOB_EXPECTED_DIGESTS_H

#define T_EXPECTED_DIGEST "89e1521e97a9b230"        /* synthetic: every target */
#define T_EXPECTED_CORPUS_DIGEST "7ec47861813ce5a2" /* ../shared/corpus: hosted targets */

#endif
