// RowView: one source element's row of a query's output (e.g. the one-ring
// of a vertex for VV), handed to the user's lambda. The row stays in the
// patch's 16-bit local ids (in shared memory, or in registers for rows of at
// most three entries) and is mapped to a global id on access: owned elements
// by offset, ribbon elements through the patch's ribbon list.
#pragma once

#include <cstdint>

#include "rxmesh/core/ids.h"
#include "rxmesh/core/macros.h"

namespace rxmesh {

//! How a patch's local ids of one element kind map to global ids.
struct LocalToGlobal
{
    std::uint32_t        owned_offset = 0;  // global id of local 0
    std::uint32_t        num_owned    = 0;
    const std::uint32_t* ribbon       = nullptr;  // global ids of locals num_owned, ...

    RXMESH_DEVICE std::uint32_t operator()(std::uint32_t local) const
    {
        return local < num_owned ? owned_offset + local : ribbon[local - num_owned];
    }
};

template <typename OutputId>
class RowView
{
   public:
    RowView() = default;
    //! A row of local ids (each shifted left by `shift`) in shared memory,
    //! mapped to global ids on access.
    RXMESH_DEVICE RowView(const std::uint16_t* local, std::uint32_t size, int shift,
                           LocalToGlobal map)
        : m_local(local), m_size(size), m_shift(shift), m_map(map)
    {
    }
    //! A row of at most three entries held by value (EV, FE, FV, and EF / FF
    //! of oriented-manifold patches): `raw` are
    //! the local entries (shifted left by `shift`), `global` their global ids,
    //! both already loaded, so access costs no memory traffic.
    RXMESH_DEVICE RowView(const std::uint16_t (&raw)[3], const std::uint32_t (&global)[3],
                           std::uint32_t size, int shift)
        : m_size(size),
          m_shift(shift),
          m_inline(true),
          m_raw{raw[0], raw[1], raw[2]},
          m_global{global[0], global[1], global[2]}
    {
    }

    RXMESH_DEVICE std::uint32_t size() const { return m_size; }
    RXMESH_DEVICE bool          empty() const { return m_size == 0; }

    //! The i-th output as a global id.
    RXMESH_DEVICE OutputId operator[](std::uint32_t i) const
    {
        RXMESH_DEVICE_CHECK(i < m_size);
        return OutputId(m_inline ? pick(m_global, i) : m_map(local(i)));
    }
    RXMESH_DEVICE OutputId front() const { return (*this)[0]; }
    RXMESH_DEVICE OutputId back() const { return (*this)[m_size - 1]; }
    //! The i-th output in the patch's local numbering.
    RXMESH_DEVICE std::uint32_t local(std::uint32_t i) const { return raw(i) >> m_shift; }
    //! FE only: whether the face walks edge i from its larger to its smaller vertex.
    RXMESH_DEVICE bool flipped(std::uint32_t i) const { return m_shift == 1 && (raw(i) & 1u); }

    //! Calls f(i, output i) for each output in order. Same as a loop over
    //! size(), but a row held by value (at most three entries) unrolls
    //! fully, with no branch around the calls: in for_each lambdas that
    //! load something and then write the row, the compiler can then start the
    //! next elements' loads before this row's stores (a loop up to size()
    //! has an unknown trip count and stays a loop).
    template <typename F>
    RXMESH_DEVICE void for_each(F&& f) const
    {
        if (m_inline) {
#pragma unroll
            for (std::uint32_t i = 0; i < 3; ++i)
                if (i < m_size)
                    f(i, (*this)[i]);
        } else {
            for (std::uint32_t i = 0; i < m_size; ++i)
                f(i, (*this)[i]);
        }
    }

    class const_iterator
    {
       public:
        RXMESH_DEVICE const_iterator(const RowView* it, std::uint32_t i) : m_it(it), m_i(i) {}
        RXMESH_DEVICE OutputId operator*() const { return (*m_it)[m_i]; }
        RXMESH_DEVICE const_iterator& operator++()
        {
            ++m_i;
            return *this;
        }
        RXMESH_DEVICE bool operator!=(const const_iterator& o) const { return m_i != o.m_i; }

       private:
        const RowView* m_it;
        std::uint32_t   m_i;
    };
    RXMESH_DEVICE const_iterator begin() const { return const_iterator(this, 0); }
    RXMESH_DEVICE const_iterator end() const { return const_iterator(this, m_size); }

   private:
    //! a[i] for i < 3 without dynamic indexing (keeps a[] in registers)
    template <typename T>
    RXMESH_DEVICE static T pick(const T (&a)[3], std::uint32_t i)
    {
        return i == 0 ? a[0] : (i == 1 ? a[1] : a[2]);
    }
    RXMESH_DEVICE std::uint32_t raw(std::uint32_t i) const
    {
        return m_inline ? pick(m_raw, i) : m_local[i];
    }

    const std::uint16_t* m_local = nullptr;
    std::uint32_t        m_size  = 0;
    int                  m_shift = 0;
    LocalToGlobal        m_map;
    bool                 m_inline = false;
    std::uint16_t        m_raw[3]    = {0, 0, 0};
    std::uint32_t        m_global[3] = {0, 0, 0};
};

}  // namespace rxmesh
