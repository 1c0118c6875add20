// build_topology's size limits (build/topology.h), checked on the host
// without allocating a mesh of that size.
#include <gtest/gtest.h>

#include <string>

#include "rxmesh/build/topology.h"
#include "rxmesh/core/error.h"

namespace {

using namespace rxmesh;

TEST(TopologyLimits, FacesBeyondThirtyOneBitEdgeIdsAreRefusedNamingTheLimit)
{
    EXPECT_NO_THROW(require_topology_size(kMaxTopologyFaces));
    EXPECT_EQ(kMaxTopologyFaces, 715827882u);  // 3F < 2^31
    try {
        require_topology_size(kMaxTopologyFaces + 1);
        FAIL() << "no InvalidInputError";
    } catch (const InvalidInputError& e) {
        EXPECT_NE(std::string(e.what()).find("715827882"), std::string::npos) << e.what();
    }
}

TEST(TopologyLimits, FacePairsBeyondThirtyTwoBitOffsetsAreRefused)
{
    EXPECT_NO_THROW(require_face_pairs(4294967295ull));
    EXPECT_THROW(require_face_pairs(4294967296ull), InvalidInputError);
}

}  // namespace
