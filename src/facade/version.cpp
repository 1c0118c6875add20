// rxmesh::version(): the version CMake's project() names, compiled in here
// only (CMakeLists.txt defines RXMESH_VERSION_STRING for this file).
#include "rxmesh/version.h"

namespace rxmesh {

const char* version()
{
    return RXMESH_VERSION_STRING;
}

}  // namespace rxmesh
