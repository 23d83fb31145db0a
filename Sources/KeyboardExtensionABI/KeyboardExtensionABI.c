// SPDX-License-Identifier: MIT
// The ABI's layout, checked at compile time: a change here is an ABI break and needs a new
// KBX_ABI_VERSION. Sizes are for LP64 (64-bit Linux), the platform the host supports.
#include "KeyboardExtensionABI.h"

#if defined(__LP64__)
_Static_assert(offsetof(kbx_extension_descriptor, struct_size) == 4, "header prefix");
_Static_assert(offsetof(kbx_extension_descriptor, identifier) == 8, "descriptor layout");
_Static_assert(KBX_EXTENSION_DESCRIPTOR_MIN_SIZE == 96, "descriptor revision 1 size");
_Static_assert(offsetof(kbx_extension_descriptor, key_gestures) == 104, "descriptor revisions 2-4 size");
_Static_assert(sizeof(kbx_extension_descriptor) == 112, "descriptor revision 5 size");
_Static_assert(KBX_HOST_API_MIN_SIZE == 144, "host API revision 1 size");
_Static_assert(offsetof(kbx_host_api, play_input_click) == 160, "host API revisions 2-3 size");
_Static_assert(offsetof(kbx_host_api, show_input_mode_list) == 168, "host API revision 4 size");
_Static_assert(sizeof(kbx_host_api) == 176, "host API revision 5 size");
_Static_assert(offsetof(kbx_text_snapshot, platform) == 152, "snapshot revisions 1-2 size");
_Static_assert(offsetof(kbx_text_snapshot, primary_language) == 160, "snapshot revisions 3-4 size");
_Static_assert(sizeof(kbx_text_snapshot) == 176, "snapshot revision 5 size");
_Static_assert(offsetof(kbx_text_snapshot, text_content_type) == 112, "snapshot layout");
_Static_assert(offsetof(kbx_key_event, callout) == 24, "key event revisions 1-4 size");
_Static_assert(sizeof(kbx_key_event) == 40, "key event revision 5 size");
#endif
