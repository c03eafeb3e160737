# WAMR's build options wherever this project builds WAMR on Linux (native/CMakeLists.txt for the POSIX host
# and the bench, native/test/wamr/CMakeLists.txt for the C unit tests): what the device build has too, the
# interpreter alone, bulk memory (AssemblyScript emits memory.copy/fill), software bounds checks (as on the
# ESP32: no signal env per thread), none of the rest. The caller sets WAMR_BUILD_FAST_INTERP and
# WAMR_BUILD_MINI_LOADER, then includes WAMR's runtime_lib.cmake.
set(WAMR_BUILD_PLATFORM linux)
if(CMAKE_SIZEOF_VOID_P EQUAL 4)
  set(WAMR_BUILD_TARGET X86_32) # CMAKE_C_FLAGS=-m32: a 32-bit build, as on the device
else()
  set(WAMR_BUILD_TARGET X86_64)
endif()
set(WAMR_BUILD_INTERP 1)
set(WAMR_BUILD_AOT 0)
set(WAMR_BUILD_JIT 0)
set(WAMR_BUILD_LIBC_BUILTIN 0)
set(WAMR_BUILD_LIBC_WASI 0)
set(WAMR_BUILD_BULK_MEMORY 1)
set(WAMR_BUILD_SIMD 0)
set(WAMR_DISABLE_HW_BOUND_CHECK 1)
set(WAMR_DISABLE_STACK_HW_BOUND_CHECK 1)
