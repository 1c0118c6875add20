# Default CUDA architectures, decided before project() enables CUDA.
#
# Precedence: -DCMAKE_CUDA_ARCHITECTURES=..., then the CUDAARCHS environment
# variable (CMake's own), then the GPU of this machine (through nvidia-smi),
# then sm_90 alone: one architecture keeps a first build short (a list such as
# "75;80;86;89;90" builds every kernel five times); its PTX also runs, JIT
# compiled, on newer GPUs.
#
# RXMESH_GPU_HERE says whether this machine has a GPU at all (whatever the
# architectures asked for): tests/ builds its GPU tests for checking alone
# where it has none.
find_program(RXMESH_NVIDIA_SMI nvidia-smi)
set(_rxmesh_arch "")
if(RXMESH_NVIDIA_SMI)
  execute_process(COMMAND ${RXMESH_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE _rxmesh_caps RESULT_VARIABLE _rxmesh_rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_rxmesh_rc EQUAL 0 AND _rxmesh_caps MATCHES "^([0-9]+)\\.([0-9]+)")
    set(_rxmesh_arch "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
  endif()
endif()
if(_rxmesh_arch)
  set(RXMESH_GPU_HERE TRUE)
else()
  set(RXMESH_GPU_HERE FALSE)
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  if(_rxmesh_arch)
    message(STATUS "RXMesh: building for the GPU found here: sm_${_rxmesh_arch}")
    set(CMAKE_CUDA_ARCHITECTURES ${_rxmesh_arch} CACHE STRING "CUDA architectures")
  else()
    message(STATUS "RXMesh: no GPU found; building for sm_90 only "
                   "(-DCMAKE_CUDA_ARCHITECTURES=\"80;86;89;90\" for others)")
    set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures")
  endif()
endif()
