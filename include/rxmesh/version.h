// rxmesh::version(): the library's version (CMake's project version, compiled
// into src/facade/version.cpp).
#pragma once

namespace rxmesh {

//! This build's version, "major.minor.patch".
const char* version();

}  // namespace rxmesh
