//===- _call.c - The calls of gather's Python package ---------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The extension module gather._call: the one step of the package that runs
// per call, in C. An Entry calls one `_mlir_ciface_` function of a library
// made by gather-compile on NumPy arrays: it checks each array against the
// entry point's type, writes the memref descriptors, releases the GIL for
// the call and wraps the results, which the kernel malloc'ed, as arrays that
// own them. Reports collects the run-time reports of one library's kernels
// (the handler given to gatherSetKernelErrorHandler) for the call they
// belong to. Everything else (compiling, loading, the entry points' types,
// the messages for a wrong call) is Python (_module.py).
//
//===----------------------------------------------------------------------===//

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// The most arrays (arguments, plus one for the results) a call passes:
/// the cases of callWithPointers.
enum { kMaxPointers = 32 };

/// Results up to this size are copied into an array NumPy allocates (and
/// the kernel's buffer freed at once); larger ones are wrapped and freed
/// with the array.
enum { kCopyBytes = 1 << 16 };

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

/// The reports of one call, NUL-separated lines.
typedef struct {
  char *text;
  size_t length;
  size_t capacity;
  int truncated;
} Messages;

typedef struct {
  PyObject_HEAD
      /// Serializes the calls of a library whose kernels run threads (their
      /// reports come from worker threads, so only one call may be in flight).
      pthread_mutex_t callLock;
  /// Guards `current` and every append.
  pthread_mutex_t appendLock;
  int threaded;
  /// The call in flight of a threaded library.
  Messages *current;
  /// gather.Error.
  PyObject *errorType;
} Reports;

/// The call in flight on this thread.
static _Thread_local Messages *threadMessages;

static void appendMessage(Messages *messages, const char *text) {
  size_t length = strlen(text);
  size_t needed = messages->length + length + 2;
  if (needed > messages->capacity) {
    size_t capacity =
        needed > 2 * messages->capacity ? needed : 2 * messages->capacity;
    char *grown = realloc(messages->text, capacity);
    if (!grown) {
      messages->truncated = 1;
      return;
    }
    messages->text = grown;
    messages->capacity = capacity;
  }
  if (messages->length)
    messages->text[messages->length++] = '\n';
  memcpy(messages->text + messages->length, text, length);
  messages->length += length;
  messages->text[messages->length] = '\0';
}

/// The GatherErrorHandler of a library: the report goes to the call on this
/// thread, or (from a worker thread) to the library's call in flight.
static void onReport(const char *message, void *context) {
  Reports *reports = context;
  pthread_mutex_lock(&reports->appendLock);
  Messages *messages = threadMessages ? threadMessages : reports->current;
  if (messages)
    appendMessage(messages, message ? message : "(no message)");
  pthread_mutex_unlock(&reports->appendLock);
}

/// Whether `kwargs` is empty; if not, raises the TypeError.
static int noKeywords(const char *type, PyObject *kwargs) {
  if (!kwargs || !PyDict_GET_SIZE(kwargs))
    return 1;
  PyErr_Format(PyExc_TypeError, "%s() takes no keyword arguments", type);
  return 0;
}

static int reportsInit(Reports *self, PyObject *args, PyObject *kwargs) {
  int threaded = 0;
  PyObject *errorType = NULL;
  if (!noKeywords("Reports", kwargs) ||
      !PyArg_ParseTuple(args, "pO", &threaded, &errorType))
    return -1;
  self->threaded = threaded;
  Py_INCREF(errorType);
  Py_XSETREF(self->errorType, errorType);
  return 0;
}

static PyObject *reportsNew(PyTypeObject *type, PyObject *args,
                            PyObject *kwargs) {
  (void)args;
  (void)kwargs;
  Reports *self = (Reports *)type->tp_alloc(type, 0);
  if (!self)
    return NULL;
  pthread_mutex_init(&self->callLock, NULL);
  pthread_mutex_init(&self->appendLock, NULL);
  return (PyObject *)self;
}

static void reportsDealloc(Reports *self) {
  pthread_mutex_destroy(&self->callLock);
  pthread_mutex_destroy(&self->appendLock);
  Py_XDECREF(self->errorType);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *reportsGetHandler(Reports *self, void *closure) {
  (void)self;
  (void)closure;
  return PyLong_FromVoidPtr((void *)(uintptr_t)&onReport);
}

static PyObject *reportsGetContext(Reports *self, void *closure) {
  (void)closure;
  return PyLong_FromVoidPtr(self);
}

static PyGetSetDef reportsGetSet[] = {
    {"handler", (getter)reportsGetHandler, NULL,
     "The address of the C handler (a GatherErrorHandler).", NULL},
    {"context", (getter)reportsGetContext, NULL,
     "The handler's user data: this object (keep it alive).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject reportsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gather._call.Reports",
    .tp_basicsize = sizeof(Reports),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Reports(threaded, error_type): the run-time reports of one "
              "library's kernels, for the calls of its Entry objects.",
    .tp_new = reportsNew,
    .tp_init = (initproc)reportsInit,
    .tp_dealloc = (destructor)reportsDealloc,
    .tp_getset = reportsGetSet,
};

//===----------------------------------------------------------------------===//
// Entry
//===----------------------------------------------------------------------===//

/// What a call checks of one argument, or wraps of one result.
typedef struct {
  PyArray_Descr *dtype;
  int rank;
  /// Per dimension: the static size, or -1.
  npy_intp *sizes;
} Tensor;

typedef struct {
  PyObject_HEAD vectorcallfunc vectorcall;
  void *function;
  Reports *reports;
  /// complain(i, array): raises the exception for a bad argument `i`
  /// (-1: the count).
  PyObject *complain;
  int argumentCount;
  int resultCount;
  Tensor *arguments;
  Tensor *results;
  /// 64-bit words of the descriptors of all results, then all arguments.
  Py_ssize_t resultWords;
  Py_ssize_t words;
  PyObject *dict;
} Entry;

static void callWithPointers(void *function, void *const *p, int count) {
  switch (count) {
  case 0:
    ((void (*)(void))function)();
    return;
  case 1:
    ((void (*)(void *))function)(p[0]);
    return;
  case 2:
    ((void (*)(void *, void *))function)(p[0], p[1]);
    return;
  case 3:
    ((void (*)(void *, void *, void *))function)(p[0], p[1], p[2]);
    return;
  case 4:
    ((void (*)(void *, void *, void *, void *))function)(p[0], p[1], p[2],
                                                         p[3]);
    return;
  case 5:
    ((void (*)(void *, void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4]);
    return;
  case 6:
    ((void (*)(void *, void *, void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5]);
    return;
  case 7:
    ((void (*)(void *, void *, void *, void *, void *, void *,
               void *))function)(p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    return;
  case 8:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *,
               void *))function)(p[0], p[1], p[2], p[3], p[4], p[5], p[6],
                                 p[7]);
    return;
  case 9:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *))function)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                                 p[8]);
    return;
  case 10:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *))function)(p[0], p[1], p[2], p[3], p[4], p[5],
                                         p[6], p[7], p[8], p[9]);
    return;
  case 11:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10]);
    return;
  case 12:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11]);
    return;
  case 13:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12]);
    return;
  case 14:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13]);
    return;
  case 15:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *,
               void *))function)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                                 p[8], p[9], p[10], p[11], p[12], p[13], p[14]);
    return;
  case 16:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *,
               void *))function)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                                 p[8], p[9], p[10], p[11], p[12], p[13], p[14],
                                 p[15]);
    return;
  case 17:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *))function)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                                 p[8], p[9], p[10], p[11], p[12], p[13], p[14],
                                 p[15], p[16]);
    return;
  case 18:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17]);
    return;
  case 19:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18]);
    return;
  case 20:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19]);
    return;
  case 21:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20]);
    return;
  case 22:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20],
        p[21]);
    return;
  case 23:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *,
               void *))function)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                                 p[8], p[9], p[10], p[11], p[12], p[13], p[14],
                                 p[15], p[16], p[17], p[18], p[19], p[20],
                                 p[21], p[22]);
    return;
  case 24:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *,
               void *))function)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                                 p[8], p[9], p[10], p[11], p[12], p[13], p[14],
                                 p[15], p[16], p[17], p[18], p[19], p[20],
                                 p[21], p[22], p[23]);
    return;
  case 25:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *))function)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                                 p[8], p[9], p[10], p[11], p[12], p[13], p[14],
                                 p[15], p[16], p[17], p[18], p[19], p[20],
                                 p[21], p[22], p[23], p[24]);
    return;
  case 26:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20],
        p[21], p[22], p[23], p[24], p[25]);
    return;
  case 27:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20],
        p[21], p[22], p[23], p[24], p[25], p[26]);
    return;
  case 28:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20],
        p[21], p[22], p[23], p[24], p[25], p[26], p[27]);
    return;
  case 29:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20],
        p[21], p[22], p[23], p[24], p[25], p[26], p[27], p[28]);
    return;
  case 30:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20],
        p[21], p[22], p[23], p[24], p[25], p[26], p[27], p[28], p[29]);
    return;
  case 31:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *,
               void *))function)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
        p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20],
        p[21], p[22], p[23], p[24], p[25], p[26], p[27], p[28], p[29], p[30]);
    return;
  case 32:
    ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *, void *,
               void *, void *, void *, void *, void *, void *, void *,
               void *))function)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                                 p[8], p[9], p[10], p[11], p[12], p[13], p[14],
                                 p[15], p[16], p[17], p[18], p[19], p[20],
                                 p[21], p[22], p[23], p[24], p[25], p[26],
                                 p[27], p[28], p[29], p[30], p[31]);
    return;
  default:
    return; // entryInit refuses more.
  }
}

static void freeTensors(Tensor *tensors, int count) {
  if (!tensors)
    return;
  for (int i = 0; i < count; ++i) {
    Py_XDECREF(tensors[i].dtype);
    PyMem_Free(tensors[i].sizes);
  }
  PyMem_Free(tensors);
}

/// Reads a sequence of (dtype, sizes) pairs, sizes a sequence of int or
/// None, into `*tensors`.
static int readTensors(PyObject *specs, Tensor **tensors, int *count,
                       Py_ssize_t *words) {
  PyObject *sequence = PySequence_Fast(specs, "tensor types: a sequence");
  if (!sequence)
    return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(sequence);
  *tensors = PyMem_Calloc(n ? (size_t)n : 1, sizeof(Tensor));
  *count = (int)n;
  *words = 0;
  if (!*tensors) {
    Py_DECREF(sequence);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *dtype = NULL, *sizes = NULL;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(sequence, i), "OO", &dtype,
                          &sizes))
      goto fail;
    Tensor *tensor = &(*tensors)[i];
    if (!PyArray_DescrConverter(dtype, &tensor->dtype))
      goto fail;
    PyObject *dims = PySequence_Fast(sizes, "sizes: a sequence");
    if (!dims)
      goto fail;
    tensor->rank = (int)PySequence_Fast_GET_SIZE(dims);
    tensor->sizes =
        PyMem_Calloc(tensor->rank ? (size_t)tensor->rank : 1, sizeof(npy_intp));
    for (int d = 0; tensor->sizes && d < tensor->rank; ++d) {
      PyObject *size = PySequence_Fast_GET_ITEM(dims, d);
      tensor->sizes[d] = size == Py_None ? -1 : PyLong_AsSsize_t(size);
    }
    Py_DECREF(dims);
    if (!tensor->sizes) {
      PyErr_NoMemory();
      goto fail;
    }
    if (PyErr_Occurred())
      goto fail;
    *words += 3 + 2 * (Py_ssize_t)tensor->rank;
  }
  Py_DECREF(sequence);
  return 0;
fail:
  Py_DECREF(sequence);
  return -1;
}

static PyObject *entryVectorcall(PyObject *callable, PyObject *const *args,
                                 size_t nargsf, PyObject *kwnames);

static int entryInit(Entry *self, PyObject *args, PyObject *kwargs) {
  PyObject *address = NULL, *arguments = NULL, *results = NULL;
  PyObject *complain = NULL;
  Reports *reports = NULL;
  if (!noKeywords("Entry", kwargs) ||
      !PyArg_ParseTuple(args, "OO!OOO", &address, &reportsType, &reports,
                        &arguments, &results, &complain))
    return -1;
  if (self->reports) {
    PyErr_SetString(PyExc_RuntimeError, "Entry initialized twice");
    return -1;
  }
  self->function = PyLong_AsVoidPtr(address);
  if (!self->function) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_ValueError, "Entry: a null function");
    return -1;
  }
  Py_ssize_t argumentWords = 0;
  if (readTensors(arguments, &self->arguments, &self->argumentCount,
                  &argumentWords) ||
      readTensors(results, &self->results, &self->resultCount,
                  &self->resultWords))
    return -1;
  self->words = self->resultWords + argumentWords;
  if (self->argumentCount + (self->resultCount ? 1 : 0) > kMaxPointers) {
    PyErr_Format(PyExc_ValueError,
                 "an entry point of %d arguments and %d results: gather's "
                 "Python package calls at most %d arguments",
                 self->argumentCount, self->resultCount, kMaxPointers - 1);
    return -1;
  }
  Py_INCREF(reports);
  self->reports = reports;
  Py_INCREF(complain);
  self->complain = complain;
  self->vectorcall = entryVectorcall;
  return 0;
}

static void entryDealloc(Entry *self) {
  PyObject_GC_UnTrack(self);
  Py_CLEAR(self->reports);
  Py_CLEAR(self->complain);
  Py_CLEAR(self->dict);
  freeTensors(self->arguments, self->argumentCount);
  freeTensors(self->results, self->resultCount);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int entryTraverse(Entry *self, visitproc visit, void *arg) {
  Py_VISIT(self->reports);
  Py_VISIT(self->complain);
  Py_VISIT(self->dict);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

static int entryClear(Entry *self) {
  Py_CLEAR(self->complain);
  Py_CLEAR(self->dict);
  return 0;
}

/// Raises the exception for argument `i` (-1: the count) through complain.
static PyObject *complainAbout(Entry *self, Py_ssize_t i, PyObject *array) {
  PyObject *result =
      PyObject_CallFunction(self->complain, "nO", i, array ? array : Py_None);
  if (result) { // complain must raise; if it did not, say so.
    Py_DECREF(result);
    PyErr_SetString(PyExc_TypeError, "bad call");
  }
  return NULL;
}

/// Whether `array` is the argument's contiguous array of its dtype.
static int fits(PyArrayObject *array, const Tensor *tensor) {
  PyArray_Descr *dtype = PyArray_DESCR(array);
  return (dtype == tensor->dtype || PyArray_EquivTypes(dtype, tensor->dtype)) &&
         PyArray_ISCARRAY_RO(array);
}

static void freeCapsule(PyObject *capsule) {
  free(PyCapsule_GetPointer(capsule, NULL));
}

/// The result described at `words` as an array that owns its data.
static PyObject *adopt(const int64_t *words, const Tensor *tensor) {
  void *allocated = (void *)(intptr_t)words[0];
  char *aligned = (char *)(intptr_t)words[1];
  npy_intp dims[NPY_MAXDIMS];
  npy_intp count = 1;
  for (int d = 0; d < tensor->rank; ++d) {
    dims[d] = (npy_intp)words[3 + d];
    count *= dims[d];
  }
  npy_intp itemSize = tensor->dtype->elsize;
  char *start = aligned + words[2] * itemSize;
  size_t bytes = (size_t)count * (size_t)itemSize;
  if (bytes <= kCopyBytes) {
    Py_INCREF(tensor->dtype);
    PyObject *array = PyArray_NewFromDescr(
        &PyArray_Type, tensor->dtype, tensor->rank, dims, NULL, NULL, 0, NULL);
    if (array && bytes)
      memcpy(PyArray_DATA((PyArrayObject *)array), start, bytes);
    free(allocated);
    return array;
  }
  if (!allocated) {
    PyErr_SetString(PyExc_RuntimeError, "a call returned no buffer");
    return NULL;
  }
  PyObject *owner = PyCapsule_New(allocated, NULL, freeCapsule);
  if (!owner) {
    free(allocated);
    return NULL;
  }
  Py_INCREF(tensor->dtype);
  PyObject *array =
      PyArray_NewFromDescr(&PyArray_Type, tensor->dtype, tensor->rank, dims,
                           NULL, start, NPY_ARRAY_CARRAY, NULL);
  if (!array) {
    Py_DECREF(owner);
    return NULL;
  }
  // Steals `owner`, also when it fails.
  if (PyArray_SetBaseObject((PyArrayObject *)array, owner) < 0) {
    Py_DECREF(array);
    return NULL;
  }
  return array;
}

static PyObject *entryVectorcall(PyObject *callable, PyObject *const *args,
                                 size_t nargsf, PyObject *kwnames) {
  Entry *self = (Entry *)callable;
  if (!self->reports) {
    PyErr_SetString(PyExc_TypeError, "Entry not initialized");
    return NULL;
  }
  if (kwnames && PyTuple_GET_SIZE(kwnames)) {
    PyErr_SetString(PyExc_TypeError, "an entry point takes no keywords");
    return NULL;
  }
  Py_ssize_t given = PyVectorcall_NARGS(nargsf);
  if (given != self->argumentCount)
    return complainAbout(self, -1, NULL);

  // The descriptors: the results' (as the C wrapper writes them), then each
  // argument's (allocated, aligned, offset, sizes, strides).
  int64_t local[256];
  int64_t *words = local;
  if (self->words > (Py_ssize_t)(sizeof(local) / sizeof(local[0]))) {
    words = PyMem_Malloc((size_t)self->words * sizeof(int64_t));
    if (!words)
      return PyErr_NoMemory();
  }
  memset(words, 0, (size_t)self->resultWords * sizeof(int64_t));
  void *pointers[kMaxPointers];
  PyArrayObject *kept[kMaxPointers];
  int pointerCount = 0;
  int keptCount = 0;
  PyObject *output = NULL;
  if (self->resultCount)
    pointers[pointerCount++] = words;
  int64_t *at = words + self->resultWords;
  for (int i = 0; i < self->argumentCount; ++i) {
    const Tensor *tensor = &self->arguments[i];
    PyObject *object = args[i];
    PyArrayObject *array;
    if (PyArray_CheckExact(object) && fits((PyArrayObject *)object, tensor)) {
      Py_INCREF(object);
      array = (PyArrayObject *)object;
    } else {
      array = (PyArrayObject *)PyArray_FROM_OF(object, NPY_ARRAY_CARRAY_RO);
      if (!array)
        goto done;
      if (!fits(array, tensor)) {
        complainAbout(self, i, (PyObject *)array);
        Py_DECREF(array);
        goto done;
      }
    }
    kept[keptCount++] = array;
    int rank = PyArray_NDIM(array);
    const npy_intp *shape = PyArray_DIMS(array);
    int shapeFits = rank == tensor->rank;
    for (int d = 0; shapeFits && d < rank; ++d)
      shapeFits = tensor->sizes[d] < 0 || tensor->sizes[d] == shape[d];
    if (!shapeFits) {
      complainAbout(self, i, (PyObject *)array);
      goto done;
    }
    int64_t address = (int64_t)(intptr_t)PyArray_DATA(array);
    at[0] = address;
    at[1] = address;
    at[2] = 0;
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      at[3 + d] = shape[d];
      at[3 + rank + d] = stride;
      stride *= shape[d];
    }
    pointers[pointerCount++] = at;
    at += 3 + 2 * rank;
  }

  Reports *reports = self->reports;
  Messages messages = {NULL, 0, 0, 0};
  Py_BEGIN_ALLOW_THREADS;
  if (reports->threaded) {
    pthread_mutex_lock(&reports->callLock);
    pthread_mutex_lock(&reports->appendLock);
    reports->current = &messages;
    pthread_mutex_unlock(&reports->appendLock);
  }
  threadMessages = &messages;
  callWithPointers(self->function, pointers, pointerCount);
  threadMessages = NULL;
  if (reports->threaded) {
    pthread_mutex_lock(&reports->appendLock);
    reports->current = NULL;
    pthread_mutex_unlock(&reports->appendLock);
    pthread_mutex_unlock(&reports->callLock);
  }
  Py_END_ALLOW_THREADS;

  if (messages.length || messages.truncated) {
    // The kernel stopped at the report: free what it allocated.
    for (int r = 0, w = 0; r < self->resultCount; ++r) {
      free((void *)(intptr_t)words[w]);
      w += 3 + 2 * self->results[r].rank;
    }
    PyObject *text =
        PyUnicode_DecodeUTF8(messages.text ? messages.text : "",
                             (Py_ssize_t)messages.length, "replace");
    if (text) {
      if (messages.truncated) {
        PyObject *more = PyUnicode_FromFormat(
            "%U\n(further reports lost: out of memory)", text);
        Py_SETREF(text, more);
      }
      if (text)
        PyErr_SetObject(reports->errorType, text);
      Py_XDECREF(text);
    }
    free(messages.text);
    goto done;
  }
  if (self->resultCount == 1) {
    output = adopt(words, &self->results[0]);
    goto done;
  }
  output = PyTuple_New(self->resultCount);
  for (int r = 0, w = 0; r < self->resultCount; ++r) {
    PyObject *result = output ? adopt(words + w, &self->results[r]) : NULL;
    if (!result) {
      // Free the buffers not yet adopted.
      for (int rest = r + (output ? 1 : 0),
               v = w + 3 + 2 * self->results[r].rank;
           rest < self->resultCount; ++rest) {
        free((void *)(intptr_t)words[v]);
        v += 3 + 2 * self->results[rest].rank;
      }
      if (!output)
        free((void *)(intptr_t)words[w]);
      Py_CLEAR(output);
      break;
    }
    PyTuple_SET_ITEM(output, r, result);
    w += 3 + 2 * self->results[r].rank;
  }

done:
  for (int k = 0; k < keptCount; ++k)
    Py_DECREF(kept[k]);
  if (words != local)
    PyMem_Free(words);
  return output;
}

static PyTypeObject entryType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gather._call.Entry",
    .tp_basicsize = sizeof(Entry),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Entry(function, reports, arguments, results, complain): calls "
              "the _mlir_ciface_ function at address `function` on arrays of "
              "the (dtype, sizes) `arguments`; returns the `results` (one "
              "array, or a tuple); a report raises reports' error type; "
              "complain(i, array) raises for a bad argument i (-1: count).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)entryInit,
    .tp_dealloc = (destructor)entryDealloc,
    .tp_traverse = (traverseproc)entryTraverse,
    .tp_clear = (inquiry)entryClear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Entry, vectorcall),
    .tp_dictoffset = offsetof(Entry, dict),
};

static struct PyModuleDef callModule = {
    PyModuleDef_HEAD_INIT, .m_name = "gather._call",
    .m_doc = "The per-call step of gather's Python package (_module.py).",
    .m_size = -1};

// The name CPython looks for.
PyMODINIT_FUNC PyInit__call(void) { // NOLINT(readability-identifier-naming)
  import_array();
  if (PyType_Ready(&reportsType) < 0 || PyType_Ready(&entryType) < 0)
    return NULL;
  PyObject *module = PyModule_Create(&callModule);
  if (!module)
    return NULL;
  if (PyModule_AddIntConstant(module, "MAX_POINTERS", kMaxPointers) < 0 ||
      PyModule_AddType(module, &reportsType) < 0 ||
      PyModule_AddType(module, &entryType) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
