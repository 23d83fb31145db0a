// A keyboard extension in C, against KeyboardExtensionABI.h alone: what an author writes who does not
// use the Swift SDK. It shows the configuration an extension must produce (docs/schemas/
// configuration.schema.json), keys that insert text and delete, a page switch told to the host, an
// event, a host command answered (docs/schemas/command-answer.schema.json), and key gestures (the
// header's section 11): "i" offers í and ì on a long-press, and delete repeats while held.
//
//   cc -std=c11 -shared -fPIC -I ../../Sources/KeyboardExtensionABI/include -o libCKeyboard.so CKeyboard.c
//   kbhost --allow-unlicensed ./libCKeyboard.so            (it has no license: see the README's Licenses)
#include <stdlib.h>
#include <string.h>
#include "KeyboardExtensionABI.h"

/* One instance per appearance of the keyboard: it keeps the host's API table, which stays valid until
   destroy_instance returns. */
typedef struct kbx_instance {
    kbx_host_api host;
    uint32_t page;  /* the sub-keyboard shown: 0 letters, 1 numbers */
    int acted;      /* the touch under way has done its key's work already (a delete, a long-press) */
} instance_t;

/* The configuration: only "layout" is required; every other key takes its default. Row and column of
   each key are how key_event names it. A host one revision newer skips keys it does not know, and so
   should an extension reading what the host sends (the header, section 2). */
static const char configuration[] =
    "{"
    "\"layout\": {\"subKeyboards\": ["
    "  {\"mode\": \"letters\", \"rows\": ["
    "    [{\"code\": \"input\", \"label\": \"h\"}, {\"code\": \"input\", \"label\": \"i\", \"callouts\": [\"\u00ed\", \"\u00ec\"]},"
    "     {\"code\": \"input\", \"label\": \"!\"}, {\"code\": \"delete\", \"label\": \"\\u232b\"}],"
    "    [{\"code\": \"modeChange:numbers\", \"label\": \"123\"}, {\"code\": \"space\", \"label\": \"space\", \"width\": 3},"
    "     {\"code\": \"action:wave\", \"label\": \"\\ud83d\\udc4b\"}]"
    "  ]},"
    "  {\"mode\": \"numbers\", \"rows\": ["
    "    [{\"code\": \"input\", \"label\": \"1\"}, {\"code\": \"input\", \"label\": \"2\"}, {\"code\": \"input\", \"label\": \"3\"},"
    "     {\"code\": \"delete\", \"label\": \"\\u232b\"}],"
    "    [{\"code\": \"modeChange:letters\", \"label\": \"ABC\"}, {\"code\": \"space\", \"label\": \"space\", \"width\": 3}]"
    "  ]}"
    "]},"
    "\"typing\": {\"keyFeedback\": {\"sound\": false}},"
    "\"appearance\": {\"theme\": \"light\"}"
    "}";

static kbx_instance *create_instance(const kbx_extension_descriptor *descriptor, const kbx_host_api *host,
                                     const char *settings_json, size_t settings_length) {
    (void)descriptor; (void)settings_json; (void)settings_length;  /* settings: docs/schemas/settings.schema.json */
    instance_t *instance = calloc(1, sizeof *instance);
    if (!instance) {
        static const char message[] = "out of memory";
        host->report_error(host->host, message, strlen(message));
        return NULL;
    }
    instance->host = *host;
    return instance;
}

static void destroy_instance(kbx_instance *instance) { free(instance); }

static kbx_status create_configuration(kbx_instance *instance, kbx_configuration_sink sink, void *context) {
    (void)instance;
    sink(context, configuration, strlen(configuration));
    return KBX_STATUS_OK;
}

static void lifecycle(kbx_instance *instance, kbx_lifecycle_event event) { (void)instance; (void)event; }
static void text_input(kbx_instance *instance, kbx_text_event event) { (void)instance; (void)event; }
static void update_snapshot(kbx_instance *instance, const kbx_text_snapshot *snapshot) { (void)instance; (void)snapshot; }

static void insert(instance_t *instance, const char *text) {
    instance->host.insert_text(instance->host.host, text, strlen(text));
}

static void show_page(instance_t *instance, uint32_t page) {
    instance->page = page;
    instance->host.set_keyboard_state(instance->host.host, page, KBX_SHIFT_OFF);
}

/* A tap: what the key does. */
static kbx_status tap(instance_t *instance, const kbx_key_event *event) {
    static const char *letters[2][4] = {{"h", "i", "!", NULL}, {NULL, " ", NULL, NULL}};
    static const char *numbers[2][4] = {{"1", "2", "3", NULL}, {NULL, " ", NULL, NULL}};
    if (event->sub_keyboard > 1 || event->row > 1 || event->column > 3) return KBX_STATUS_NO_SUCH_KEY;
    const char *text = (event->sub_keyboard == 0 ? letters : numbers)[event->row][event->column];
    if (text) {
        insert(instance, text);
    } else if (event->row == 0 && event->column == 3) {
        instance->host.delete_backward(instance->host.host);
    } else if (event->row == 1 && event->column == 0) {
        show_page(instance, event->sub_keyboard == 0 ? 1 : 0);
    } else if (event->sub_keyboard == 0 && event->row == 1 && event->column == 2) {
        static const char wave[] = "{\"name\": \"waved\", \"details\": {\"hand\": \"right\"}}";  /* event.schema.json */
        instance->host.report_event(instance->host.host, wave, strlen(wave));
        insert(instance, "\xF0\x9F\x91\x8B");
    } else {
        return KBX_STATUS_NO_SUCH_KEY;
    }
    return KBX_STATUS_OK;
}

/* Taps, and the gestures of section 11: the host sends them because the descriptor's key_gestures is
   1. Delete acts as the finger goes down and on each repeat; "i" types the callout lifted on; any
   other key held acts as it is released, as a tap. */
static kbx_status key_event(kbx_instance *instance, const kbx_key_event *event) {
    if (event->sub_keyboard > 1 || event->row > 1 || event->column > 3) return KBX_STATUS_NO_SUCH_KEY;
    int is_delete = event->row == 0 && event->column == 3;
    switch (event->action) {
    case KBX_KEY_TAP:
        return tap(instance, event);
    case KBX_KEY_DOWN:
        instance->acted = is_delete;
        if (is_delete) instance->host.delete_backward(instance->host.host);
        return KBX_STATUS_OK;
    case KBX_KEY_REPEAT:
        if (is_delete) instance->host.delete_backward(instance->host.host);
        return KBX_STATUS_OK;
    case KBX_KEY_LONG_PRESS:  /* the host shows the callouts; the choice comes with the release */
    case KBX_KEY_DRAG:        /* a finger that slid off: no tap at the release */
        instance->acted = 1;
        return KBX_STATUS_OK;
    case KBX_KEY_UP: {
        /* A field appended in revision 5: read it only if the host's event reaches it (section 2). */
        int32_t callout = KBX_HAS_FIELD(kbx_key_event, event->struct_size, callout) ? event->callout : -1;
        static const char *i_callouts[] = {"\xC3\xAD", "\xC3\xAC"};  /* í ì, as the layout lists them */
        if (callout >= 0 && callout < 2 && event->sub_keyboard == 0 && event->row == 0 && event->column == 1) {
            insert(instance, i_callouts[callout]);
            return KBX_STATUS_OK;
        }
        return instance->acted ? KBX_STATUS_OK : tap(instance, event);
    }
    default:
        return KBX_STATUS_OK;  /* an action of a later revision: not ours */
    }
}

/* This keyboard walks no documents: every command is answered at once, "unsupported". */
static void host_command(kbx_instance *instance, kbx_host_command command, uint64_t request) {
    (void)command;
    static const char answer[] = "{\"error\": \"unsupported\"}";
    instance->host.command_finished(instance->host.host, request, KBX_STATUS_FAILED, answer, strlen(answer));
}

static void cancel_command(kbx_instance *instance, uint64_t request) { (void)instance; (void)request; }

static const kbx_extension_descriptor descriptor = {
    .abi_version = KBX_ABI_VERSION,
    .struct_size = sizeof(kbx_extension_descriptor),
    .identifier = "dev.kbhost.samples.c",
    .name = "C Keyboard",
    .version = "1.0.0",
    .create_instance = create_instance,
    .destroy_instance = destroy_instance,
    .create_configuration = create_configuration,
    .lifecycle = lifecycle,
    .text_input = text_input,
    .update_snapshot = update_snapshot,
    .key_event = key_event,
    .host_command = host_command,
    .cancel_command = cancel_command,
    .key_gestures = 1,
};

const kbx_extension_descriptor *kbx_extension_entry(void) { return &descriptor; }
