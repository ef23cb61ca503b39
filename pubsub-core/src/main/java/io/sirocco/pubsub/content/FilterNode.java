package io.sirocco.pubsub.content;

/**
 * A compiled DDS-SQL condition over one root object: a deserialized sample, or a flat view over its serialized
 * bytes. Immutable; evaluating it allocates nothing (field reads through pre-built method handles, primitive
 * comparisons). A value that cannot be read (absent optional member, index past the end) makes its predicate false.
 */
interface FilterNode
{
    boolean test(Object root);
}
