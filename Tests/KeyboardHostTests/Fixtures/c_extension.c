// A keyboard extension written in C against KeyboardExtensionABI.h alone: the proof that the
// boundary is C and an extension built by another compiler loads. The tests compile it with cc,
// once as a working keyboard and once per way a load can fail (the FIXTURE_* macros).
//
// FIXTURE_CREATE_FAILS, FIXTURE_NOT_CONFIGURED and FIXTURE_CONFIGURATION="…" make it fail later, when
// the host shows it.
//
// The working keyboard has one row: "a", "b", a combining acute accent (U+0301), and delete.
//
// FIXTURE_CONTRACT makes it test the ABI's edges (sections 3, 8 and 9): "a" inserts from another
// thread; "b" also sets timer 7 to insert "!" 500 ms later; a read command walks the caret to the end
// one snapshot at a time, answering at the end; destroy_instance calls the host from another thread
// and schedules a timer. What it saw is counted in fixture_counters, for the tests to read with dlsym.
// FIXTURE_SILENT makes it never answer a command.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "KeyboardExtensionABI.h"

typedef struct kbx_instance {
    kbx_host_api host;
    uint64_t walking;   /* the request of the walk under way, or 0 */
    int64_t steps;      /* snapshots the walk has taken */
} instance_t;

/* What the contract fixture saw: read by the tests. */
struct fixture_counters {
    int timers_fired;
    int timers_fired_after_destroy;
    int walk_steps;
    int cancelled_commands;
    int destroyed;
};
struct fixture_counters fixture_counters;

#ifdef FIXTURE_CONTRACT
static instance_t *live_instance;  /* for timer callbacks, which get only the timer's number */

typedef struct { kbx_host_api host; const char *text; } thread_call;

static void *insert_from_thread(void *argument) {
    thread_call *call = argument;
    call->host.insert_text(call->host.host, call->text, strlen(call->text));
    return NULL;
}

/* Calls insert_text from another thread and waits for that thread: the call is made while the main
   thread is inside a callback, so the host must move it to its main queue. */
static void insert_on_another_thread(const kbx_host_api *host, const char *text) {
    thread_call call = {*host, text};
    pthread_t thread;
    pthread_create(&thread, NULL, insert_from_thread, &call);
    pthread_join(thread, NULL);
}

static void timer_fired(uint64_t timer) {
    fixture_counters.timers_fired++;
    if (timer == 99 || live_instance == NULL) {
        fixture_counters.timers_fired_after_destroy++;
        return;
    }
    live_instance->host.insert_text(live_instance->host.host, "!", 1);
}
#endif

static kbx_instance *create_instance(const kbx_extension_descriptor *d, const kbx_host_api *host,
                                     const char *settings, size_t settings_length) {
    (void)d; (void)settings; (void)settings_length;
#ifdef FIXTURE_CREATE_FAILS
    static const char message[] = "no memory for the dictionary";
    host->report_error(host->host, message, strlen(message));
    return NULL;
#endif
    instance_t *instance = calloc(1, sizeof *instance);
    instance->host = *host;
#ifdef FIXTURE_CONTRACT
    live_instance = instance;
#endif
    return instance;
}

static void destroy_instance(kbx_instance *instance) {
#ifdef FIXTURE_CONTRACT
    /* Section 9: both are dropped. */
    insert_on_another_thread(&instance->host, "late");
    instance->host.schedule_timer(instance->host.host, 99, 1, timer_fired);
    live_instance = NULL;
    fixture_counters.destroyed++;
#endif
    free(instance);
}

#ifdef FIXTURE_CONFIGURATION
__attribute__((unused)) static const char configuration[] = FIXTURE_CONFIGURATION;
#else
__attribute__((unused)) static const char configuration[] =
    "{\"layout\":{\"subKeyboards\":[{\"mode\":\"letters\",\"rows\":[["
    "{\"code\":\"input\",\"label\":\"a\"},"
    "{\"code\":\"input\",\"label\":\"b\"},"
    "{\"code\":\"input\",\"label\":\"\\u00b4\",\"output\":\"\\u0301\"},"
    "{\"code\":\"delete\",\"label\":\"del\"}"
    "]]}]}}";
#endif

static kbx_status create_configuration(kbx_instance *instance, kbx_configuration_sink sink, void *context) {
#ifdef FIXTURE_NOT_CONFIGURED
    static const char message[] = "this C keyboard has no configuration yet";
    instance->host.report_error(instance->host.host, message, strlen(message));
    (void)sink; (void)context;
    return KBX_STATUS_NOT_CONFIGURED;
#else
    (void)instance;
    sink(context, configuration, strlen(configuration));
    return KBX_STATUS_OK;
#endif
}

static void lifecycle(kbx_instance *instance, kbx_lifecycle_event event) { (void)instance; (void)event; }
static void text_input(kbx_instance *instance, kbx_text_event event) { (void)instance; (void)event; }
static void update_snapshot(kbx_instance *instance, const kbx_text_snapshot *snapshot) {
#ifdef FIXTURE_CONTRACT
    /* The walk: one step per snapshot, until the window after the caret is empty. */
    if (instance->walking == 0) return;
    fixture_counters.walk_steps++;
    instance->steps++;
    if (snapshot->context_after.length == 0) {
        static const char answer[] = "{\"roundTrips\":1}";
        uint64_t request = instance->walking;
        instance->walking = 0;
        instance->host.command_finished(instance->host.host, request, KBX_STATUS_OK, answer, strlen(answer));
        return;
    }
    instance->host.adjust_text_position(instance->host.host, 1);
#else
    (void)instance; (void)snapshot;
#endif
}

__attribute__((unused)) static kbx_status key_event(kbx_instance *instance, const kbx_key_event *event) {
    static const char *outputs[] = {"a", "b", "\xCC\x81"};
    if (event->sub_keyboard != 0 || event->row != 0 || event->column > 3) return KBX_STATUS_NO_SUCH_KEY;
#ifdef FIXTURE_PUSHES_BAD_LAYOUT
    static const char bad[] = "{\"subKeyboards\":[]}";
    instance->host.set_layout(instance->host.host, bad, strlen(bad));
#endif
#ifdef FIXTURE_CONTRACT
    if (event->column == 0) {
        insert_on_another_thread(&instance->host, "t");
        return KBX_STATUS_OK;
    }
    if (event->column == 1) instance->host.schedule_timer(instance->host.host, 7, 500000000u, timer_fired);
#endif
    if (event->column == 3) {
        instance->host.delete_backward(instance->host.host);
    } else {
        const char *text = outputs[event->column];
        instance->host.insert_text(instance->host.host, text, strlen(text));
    }
    return KBX_STATUS_OK;
}

static void host_command(kbx_instance *instance, kbx_host_command command, uint64_t request) {
#if defined(FIXTURE_SILENT)
    (void)instance; (void)command; (void)request;  /* never answers */
    return;
#elif defined(FIXTURE_CONTRACT)
    if (command == KBX_COMMAND_READ_FULL_DOCUMENT) {
        instance->walking = request;
        instance->host.adjust_text_position(instance->host.host, 1);
        return;
    }
#endif
    (void)command;
    static const char answer[] = "{\"error\":\"unsupported\"}";
    instance->host.command_finished(instance->host.host, request, KBX_STATUS_FAILED, answer, strlen(answer));
}

static void cancel_command(kbx_instance *instance, uint64_t request) {
    if (instance->walking == request) instance->walking = 0;
    fixture_counters.cancelled_commands++;
}

#ifndef FIXTURE_ABI_VERSION
#define FIXTURE_ABI_VERSION KBX_ABI_VERSION
#endif
#ifndef FIXTURE_STRUCT_SIZE
#define FIXTURE_STRUCT_SIZE sizeof(kbx_extension_descriptor)
#endif
#ifndef FIXTURE_IDENTIFIER
#define FIXTURE_IDENTIFIER "dev.kbhost.tests.c-keyboard"
#endif
#ifndef FIXTURE_VERSION
#define FIXTURE_VERSION "0.1.0"
#endif
#ifdef FIXTURE_NULL_CALLBACK
#define KEY_EVENT NULL
#else
#define KEY_EVENT key_event
#endif

__attribute__((unused)) static const kbx_extension_descriptor descriptor = {
    .abi_version = FIXTURE_ABI_VERSION,
    .struct_size = FIXTURE_STRUCT_SIZE,
    .identifier = FIXTURE_IDENTIFIER,
    .name = "C Keyboard",
    .version = FIXTURE_VERSION,
    .create_instance = create_instance,
    .destroy_instance = destroy_instance,
    .create_configuration = create_configuration,
    .lifecycle = lifecycle,
    .text_input = text_input,
    .update_snapshot = update_snapshot,
    .key_event = KEY_EVENT,
    .host_command = host_command,
    .cancel_command = cancel_command,
};

#if defined(FIXTURE_NO_ENTRY)
// Exports something, but not the entry symbol.
const kbx_extension_descriptor *some_other_function(void) { return &descriptor; }
#elif defined(FIXTURE_NULL_ENTRY)
const kbx_extension_descriptor *kbx_extension_entry(void) { return NULL; }
#else
const kbx_extension_descriptor *kbx_extension_entry(void) { return &descriptor; }
#endif
