/* Reports which kernel port the macro block in ports.h chose. */
#include "plumbob/base.h"
#include "ports.h"

const char *plumbob_port_name(void) {
    return PLUMBOB_PORT_NAME;
}
